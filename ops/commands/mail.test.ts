import { createLogger } from '../../api/logger';
import { DevelopmentEmailSender } from '../../domain/notifications/dev-email';
import type { OpsContext } from './command';
import { mailCommand } from './mail';
import { openFixture, type Fixture } from '../testing/command-fixtures';

let fixture: Fixture;
beforeAll(async () => {
  fixture = await openFixture();
});
afterAll(() => fixture.close());

function opsContext(lines: string[]): OpsContext {
  return {
    config: {} as OpsContext['config'],
    out: (line) => lines.push(line),
    connect: async () => ({ databaseUrl: '', store: fixture.store, db: fixture.db }),
  };
}

describe('npm run ops -- mail', () => {
  it('says so when the outbox is empty', async () => {
    const lines: string[] = [];
    expect(await mailCommand.run([], opsContext(lines))).toBe(0);
    expect(lines.join('\n')).toMatch(/^The outbox is empty/);
  });

  it('lists the newest outbox mail with its recipient, subject and link; --to, --limit and --body', async () => {
    const sender = new DevelopmentEmailSender(fixture.db, createLogger({ level: 'silent' }));
    const link = 'http://localhost:3000/reset-password?token=tok_for_dee';
    await sender.send({ to: 'ann@example.com', subject: 'Welcome', text: 'Hello Ann', kind: 'welcome' });
    await new Promise((resolve) => setTimeout(resolve, 5));
    await sender.send({
      to: 'dee@example.com',
      subject: 'Reset your Lively password',
      text: `Open this link:\n${link}`,
      kind: 'password-reset',
      link,
    });

    const all: string[] = [];
    expect(await mailCommand.run([], opsContext(all))).toBe(0);
    const listed = all.join('\n');
    expect(listed.indexOf('to dee@example.com')).toBeLessThan(listed.indexOf('to ann@example.com'));
    expect(listed).toContain(`  Link:    ${link}`);
    expect(listed).toContain('password-reset  to dee@example.com');
    expect(listed).not.toContain('Hello Ann'); // bodies only with --body

    const one: string[] = [];
    expect(await mailCommand.run(['--to', 'ANN@example.com', '--body'], opsContext(one))).toBe(0);
    expect(one.join('\n')).toMatch(/welcome {2}to ann@example\.com\n {2}Subject: Welcome\n\n {2}\| Hello Ann$/);

    const newest: string[] = [];
    await mailCommand.run(['--limit', '1'], opsContext(newest));
    expect(newest.join('\n')).not.toContain('ann@example.com');

    const usage: string[] = [];
    expect(await mailCommand.run(['--limit', 'lots'], opsContext(usage))).toBe(2);
    expect(usage[0]).toMatch(/^Usage: npm run ops -- mail/);
  });
});
