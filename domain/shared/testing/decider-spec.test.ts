import type { Decider } from '../command-handler';
import { refuse } from '../errors';
import { deciderSpec } from './decider-spec';

type Counted = { type: 'Counted'; data: { by: number } };
type Count = { type: 'Count'; by: number };
const counter: Decider<Count, number, Counted> = {
  initialState: 0,
  evolve: (total, event) => total + event.data.by,
  decide(command, total) {
    if (command.by <= 0) throw refuse.validation('Count up only');
    if (total + command.by > 10) throw refuse.conflict('Too many', { total });
    return [{ type: 'Counted', data: { by: command.by } }];
  },
};
const counted = (by: number): Counted => ({ type: 'Counted', data: { by } });
const spec = deciderSpec(counter);

describe('deciderSpec', () => {
  it('folds the given events and checks the decided ones', () => {
    expect(spec.fold([counted(2), counted(3)])).toBe(5);
    expect(spec.given([counted(2)]).state).toBe(2);
    expect(
      spec
        .given([counted(2)])
        .when({ type: 'Count', by: 1 })
        .then([counted(1)]),
    ).toEqual([counted(1)]);
    spec
      .on(9)
      .when({ type: 'Count', by: 1 })
      .thenMatch([{ data: { by: 1 } }]);
    expect(
      spec.given().whenEach([
        { type: 'Count', by: 4 },
        { type: 'Count', by: 4 },
      ]).events,
    ).toEqual([counted(4), counted(4)]);
  });

  it('checks refusals by message, pattern or fields, and returns the error', () => {
    spec.given().when({ type: 'Count', by: 0 }).thenThrows('Count up only');
    spec
      .given()
      .when({ type: 'Count', by: 0 })
      .thenThrows(/up only/);
    const refusal = spec
      .given([counted(10)])
      .when({ type: 'Count', by: 1 })
      .thenThrows({ kind: 'conflict', details: { total: 10 } });
    expect(refusal.message).toBe('Too many');
    expect(() => spec.given([counted(10)]).whenEach([{ type: 'Count', by: 1 }]).events).toThrow('Too many');
  });

  it('fails when the command is not refused, or refused otherwise', () => {
    expect(() => spec.given().when({ type: 'Count', by: 1 }).thenThrows()).toThrow();
    expect(() => spec.given().when({ type: 'Count', by: 0 }).thenThrows({ kind: 'conflict' })).toThrow();
    expect(() => spec.given().when({ type: 'Count', by: 1 }).thenNothing()).toThrow();
  });
});
