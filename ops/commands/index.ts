import type { OpsCommand } from './command';
import {
  copyFromEventStoreDbCommand,
  copyToEventStoreDbCommand,
  exportCommand,
  importCommand,
} from './event-log-commands';
import { projectorsCommand } from './projectors';
import { rebuildCommand } from './rebuild';
import { seedCommand } from './seed';
import { statusCommand } from './status';
import { createAdminCommand } from './create-admin';
import { reconcileCommand } from './reconcile';
import { mailCommand } from './mail';
import { watermarkLookupCommand } from './watermark-lookup';
import { migratePiiCommand } from './migrate-pii';

/** Every `npm run ops` command, in the order help lists them. Other contexts add theirs here. */
export const opsCommands: OpsCommand[] = [
  statusCommand,
  rebuildCommand,
  exportCommand,
  importCommand,
  copyToEventStoreDbCommand,
  copyFromEventStoreDbCommand,
  projectorsCommand,
  seedCommand,
  reconcileCommand,
  migratePiiCommand,
  createAdminCommand,
  mailCommand,
  watermarkLookupCommand,
];
