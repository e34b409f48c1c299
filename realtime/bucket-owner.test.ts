import { BucketOwner } from './bucket-owner';
import { toWire, type ToProcess } from './cluster-protocol';
import { compileProfile } from './compatibility';
import type { Member } from './matcher';

/** The owner's side of a rejoin (a join naming the member only): it uses the profile it holds, or asks for it. */
describe('bucket owner: rejoins', () => {
  const member = (userId: string, blocked: string[] = []): Member => ({
    userId,
    displayName: userId,
    profile: compileProfile(null, null),
    blocked: new Set(blocked),
  });
  const setup = () => {
    const sent: [string, ToProcess][] = [];
    const alive = new Set(['A', 'B']);
    const owner = new BucketOwner(
      { toProcess: (p, m) => sent.push([p, m]), alive: async (ids) => new Set(ids.filter((id) => alive.has(id))) },
      new Map(),
      null,
      { now: () => 0 },
    );
    const join = (p: string, m: Member) => owner.receive({ t: 'join', p, m: toWire(m), mode: 'random', f: {} });
    const rejoin = (p: string, u: string, n: number) => owner.receive({ t: 'rejoin', p, u, n, mode: 'random', f: {} });
    const kinds = () => sent.splice(0).map(([p, m]) => `${p}:${m.k}:${m.u}`);
    return { owner, alive, sent, join, rejoin, kinds };
  };

  it('matches a rejoin with the profile and blocks of the last full join', () => {
    const { owner, join, rejoin, kinds } = setup();
    join('B', member('bob', ['ann']));
    owner.receive({ t: 'leave', p: 'B', u: 'bob', r: 'left' });
    join('A', member('ann'));
    rejoin('B', 'bob', 2);
    expect(kinds()).toEqual(['B:w:bob', 'A:w:ann', 'B:w:bob']); // the block held: nobody matched
    owner.receive({ t: 'leave', p: 'B', u: 'bob', r: 'left' });
    owner.receive({ t: 'leave', p: 'A', u: 'ann', r: 'left' });
    join('A', member('cay'));
    rejoin('B', 'bob', 3);
    expect(kinds()).toEqual(['A:w:cay', 'B:m:bob', 'A:m:cay']);
  });

  it('asks for the full join when it does not hold the member: unknown, disconnected, another process, or a dead one', async () => {
    const { owner, alive, sent, join, rejoin, kinds } = setup();
    rejoin('B', 'bob', 1);
    expect(sent).toEqual([['B', { k: 'n', u: 'bob', n: 1 }]]);
    kinds();
    join('B', member('bob'));
    owner.receive({ t: 'leave', p: 'B', u: 'bob', r: 'disconnected' });
    rejoin('B', 'bob', 2);
    expect(kinds()).toEqual(['B:w:bob', 'B:n:bob']);
    join('B', member('bob'));
    rejoin('A', 'bob', 1); // Bob's newer socket is on A: A sends his profile first
    expect(kinds()).toEqual(['B:w:bob', 'A:n:bob']);
    alive.delete('B');
    await owner.sweep();
    rejoin('B', 'bob', 3);
    expect(kinds()).toEqual(['B:n:bob']);
  });
});
