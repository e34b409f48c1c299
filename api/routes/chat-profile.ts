import { Router, type Request } from 'express';
import { preferencesSchema, profileSchema } from '../../domain/contracts/chat';
import { saveChatPreferences, saveChatProfile } from '../../domain/chat/commands';
import { refuse } from '../../domain/shared/errors';
import { preferencesOf } from '../../projections/user-preferences';
import { findProfile } from '../../projections/user-profiles';
import { requireActiveSubscription } from '../http/access';
import { parseWith } from '../http/validate';
import type { Api } from '../kit';

/** The Lively Chat profile and matching preferences of the signed-in member (SPEC §2 Profile setup, §5). */
export function chatProfileRoutes(api: Api): Router {
  const router = Router();
  const { store, db } = api.deps;
  const userOf = (req: Request) => req.userId as string;
  // Chat is for members with an active site subscription (SPEC §6).
  const member = requireActiveSubscription(db);
  const readProfile = (userId: string) => findProfile(db, userId);

  router.get('/profile', member, async (req, res) => {
    const profile = await readProfile(userOf(req));
    if (!profile) throw refuse.notFound('Profile not found');
    res.json(profile);
  });

  router.post('/profile', member, async (req, res) => {
    const profile = parseWith(profileSchema, req.body);
    const result = await saveChatProfile(store, userOf(req), profile, api.context(req));
    await api.readYourWritesShowing(result.position, ['user_profiles']);
    res.json({ message: 'Profile saved', profile: await readProfile(userOf(req)) });
  });

  router.get('/preferences', member, async (req, res) => {
    res.json(await preferencesOf(db, userOf(req)));
  });

  router.post('/preferences', member, async (req, res) => {
    const body = parseWith(preferencesSchema, req.body);
    const preferences = { ...body, experienceLevel: body.experienceLevel ?? null };
    const result = await saveChatPreferences(store, userOf(req), preferences, api.context(req));
    await api.readYourWritesShowing(result.position, ['user_preferences']);
    res.json({ message: 'Preferences saved', preferences: await preferencesOf(db, userOf(req)) });
  });

  return router;
}
