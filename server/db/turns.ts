import { setImmediate as nextLoopTurn } from 'node:timers/promises';
import { Mutex, type PGlite, type QueryOptions, type Transaction } from '@electric-sql/pglite';

/**
 * Runs work one turn at a time, in the order it was asked for, each turn starting in a task of
 * its own on the event loop.
 *
 * Why: PGlite runs PostgreSQL in this thread, synchronously. A statement's promise resolves in a
 * microtask, so one request's statements (and every other request's ready continuations) run
 * back to back without the event loop ever polling: under load one loop iteration lasted 0.3-1.9 s.
 * Node's libuv accepts ONE new connection per loop iteration (libuv PR #3696), so 50 new
 * connections waited up to 50 such iterations, and the load generator's first requests timed out
 * at 10 s while the handler itself never took 2 s. Starting each turn from `setImmediate` lets
 * the loop accept connections and read requests between any two statements, and the FIFO mutex
 * (async-mutex, PGlite's own) serves the waiting statements in arrival order, so a request's
 * next statement queues behind the others' rather than starving.
 */
export class Turns {
  readonly #mutex = new Mutex();
  #asked = 0;
  #running = false;

  /** Runs `work` when every turn asked before it has finished, after letting the event loop poll. */
  take<T>(work: () => Promise<T>): Promise<T> {
    this.#asked += 1;
    return this.#mutex.runExclusive(async () => {
      this.#asked -= 1;
      this.#running = true;
      try {
        await nextLoopTurn();
        return await work();
      } finally {
        this.#running = false;
      }
    });
  }

  /** Turns asked for and not started yet (the metrics' "waiting" on PGlite's one connection). */
  get waiting(): number {
    return this.#asked;
  }

  /** Whether a turn is in progress. */
  get busy(): boolean {
    return this.#running;
  }
}

/** What drizzle's PGlite driver and this server call on the client. */
export type TurnTakingClient = Pick<PGlite, 'query' | 'exec' | 'transaction'>;

/**
 * The client drizzle is given: every statement outside a transaction is one turn, and a whole
 * transaction is one turn (its statements go to PGlite's own transaction object, which must not
 * wait for a turn: PGlite already keeps every other statement out until it ends).
 */
export function takingTurns(client: PGlite, turns = new Turns()): TurnTakingClient {
  const taking: TurnTakingClient = {
    query: <T>(query: string, params?: unknown[], options?: QueryOptions) =>
      turns.take(() => client.query<T>(query, params, options)),
    exec: (query: string, options?: QueryOptions) => turns.take(() => client.exec(query, options)),
    transaction: <T>(callback: (tx: Transaction) => Promise<T>) =>
      turns.take(() => client.transaction(callback)),
  };
  turnTakingClients.add(taking);
  return taking;
}

const turnTakingClients = new WeakSet<object>();

/** Whether a database client is one `takingTurns` made (PGlite behind the turns). */
export function isTurnTaking(client: unknown): client is TurnTakingClient {
  return typeof client === 'object' && client !== null && turnTakingClients.has(client);
}
