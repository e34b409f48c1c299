import { describeEventStoreContract } from './testing/contract';
import { EventStoreDbEventStore } from './eventstoredb-event-store';

const connectionString = process.env.EVENTSTORE_CONNECTION_STRING;

if (connectionString) {
  describeEventStoreContract('EventStoreDB', async () => new EventStoreDbEventStore(connectionString));
} else {
  console.log('EventStoreDB contract run skipped: EVENTSTORE_CONNECTION_STRING is not set.');
  it('runs the EventStoreDB contract only when EVENTSTORE_CONNECTION_STRING is set', () => {
    expect(connectionString).toBeUndefined();
  });
}
