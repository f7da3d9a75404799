import { type ConsoleEvent, consoleEvent } from '@uiot/contracts';

/** Kinds of console events the console reads (the others are published for later use). */
export type ConsoleChangeKind = ConsoleEvent['kind'];
export type ChangesOf<K extends ConsoleChangeKind> = Extract<ConsoleEvent, { kind: K }>['changes'];
type ChangesHandler<K extends ConsoleChangeKind> = (changes: ChangesOf<K>) => void;

const decoder = new TextDecoder();

/** One message of a console topic, or null when it is not a console event this console understands. */
export function parseConsoleEvent(payload: string | Uint8Array): ConsoleEvent | null {
  let body: unknown;
  try {
    body = JSON.parse(typeof payload === 'string' ? payload : decoder.decode(payload));
  } catch {
    return null;
  }
  const parsed = consoleEvent.safeParse(body);
  return parsed.success ? parsed.data : null;
}

/** A handler that throws must not stop the others or the channel: its error is reported on its own. */
export function reportLater(error: unknown): void {
  queueMicrotask(() => {
    throw error;
  });
}

/** Hands each console event to the handlers registered for its kind, in arrival order. */
export class ConsoleEventHub {
  private readonly handlers = new Map<ConsoleChangeKind, Set<(changes: never) => void>>();

  constructor(private readonly reportError: (error: unknown) => void = reportLater) {}

  /** Registers a handler; returns its removal. */
  on<K extends ConsoleChangeKind>(kind: K, handler: ChangesHandler<K>): () => void {
    let handlers = this.handlers.get(kind);
    if (!handlers) {
      handlers = new Set();
      this.handlers.set(kind, handlers);
    }
    const registered = handler as (changes: never) => void;
    handlers.add(registered);
    return () => {
      handlers.delete(registered);
    };
  }

  /** Parses a message and delivers it; a message that is not a console event is ignored. */
  dispatch(payload: string | Uint8Array): void {
    const event = parseConsoleEvent(payload);
    if (event) this.deliver(event);
  }

  private deliver(event: ConsoleEvent): void {
    if (event.changes.length === 0) return;
    const handlers = this.handlers.get(event.kind);
    if (!handlers) return;
    for (const handler of [...handlers]) {
      try {
        (handler as (changes: ConsoleEvent['changes']) => void)(event.changes);
      } catch (error) {
        this.reportError(error);
      }
    }
  }
}
