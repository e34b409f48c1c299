import type { Decider, DomainEvent } from '../command-handler';
import { DomainError, type ErrorKind } from '../errors';

/**
 * Decider tests as DESIGN §4 writes them: given events, when a command, then events or a
 * refusal. Test-only (uses jest's `expect`):
 *
 *   const spec = deciderSpec(postDecider);
 *   spec.given([published]).when(like).then([liked]);
 *   spec.given([]).when(like).thenThrows('Post not found');
 *   spec.given([registered]).when(create).thenThrows({ kind: 'conflict' });
 */

/** What a refusal is expected to be: its message (text or pattern), or some of its fields. */
export type ExpectedRefusal =
  string | RegExp | { kind?: ErrorKind; message?: string; details?: Record<string, unknown> };

export interface Outcome<Event> {
  /** The events decided (a refusal is thrown as is). */
  readonly events: Event[];
  /** The decided events equal these (`toEqual`); returns them. */
  then(expected: Event[]): Event[];
  /** The decided events match these (`toMatchObject`: same length, each a subset); returns them. */
  thenMatch(expected: unknown[]): Event[];
  /** The command changes nothing: no events. */
  thenNothing(): void;
  /** The command is refused with a DomainError like this; returns it. */
  thenThrows(expected?: ExpectedRefusal): DomainError;
}

export interface Scenario<Command, State, Event> {
  /** The state the given events fold to. */
  readonly state: State;
  when(command: Command): Outcome<Event>;
  /** Several commands one after another, each on the state the previous left. */
  whenEach(commands: Command[]): Outcome<Event>;
}

export interface DeciderSpec<Command, State, Event> {
  /** The state these events fold to, from the initial state. */
  fold(events?: Event[]): State;
  given(events?: Event[]): Scenario<Command, State, Event>;
  /** A command on a state the test built itself (e.g. after `evolve`). */
  on(state: State): Scenario<Command, State, Event>;
}

export function deciderSpec<Command, State, Event extends DomainEvent>(
  decider: Decider<Command, State, Event>,
): DeciderSpec<Command, State, Event> {
  const fold = (events: Event[] = [], from: State = decider.initialState) => events.reduce(decider.evolve, from);
  const outcome = (decide: () => Event[]): Outcome<Event> => ({
    get events() {
      return decide();
    },
    then(expected) {
      const events = decide();
      expect(events).toEqual(expected);
      return events;
    },
    thenMatch(expected) {
      const events = decide();
      expect(events).toMatchObject(expected);
      return events;
    },
    thenNothing() {
      expect(decide()).toEqual([]);
    },
    thenThrows(expected) {
      let refusal: unknown = undefined;
      try {
        decide();
      } catch (error) {
        refusal = error;
      }
      expect(refusal).toBeInstanceOf(DomainError);
      if (typeof expected === 'string' || expected instanceof RegExp)
        expect(() => {
          throw refusal;
        }).toThrow(expected);
      else if (expected) expect(refusal).toMatchObject(expected);
      return refusal as DomainError;
    },
  });
  const scenario = (state: State): Scenario<Command, State, Event> => ({
    state,
    when: (command) => outcome(() => decider.decide(command, state)),
    whenEach: (commands) =>
      outcome(() => {
        const decided: Event[] = [];
        let current = state;
        for (const command of commands) {
          const events = decider.decide(command, current);
          decided.push(...events);
          current = fold(events, current);
        }
        return decided;
      }),
  });
  return {
    fold: (events) => fold(events),
    given: (events) => scenario(fold(events)),
    on: scenario,
  };
}
