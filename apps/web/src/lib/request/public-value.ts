import type { EndpointResult } from '@uiot/contracts';
import { useEffect, useState } from 'react';
import { type AnyEndpoint, requestClient } from './api-client.ts';

interface Asked {
  at: number;
  answer: Promise<unknown>;
}

const asked = new Map<AnyEndpoint, Asked>();

/** Asks once per `maxAgeMs`, whoever asks; a failed call is asked again next time. */
function ask(endpoint: AnyEndpoint, maxAgeMs: number): Promise<unknown> {
  const previous = asked.get(endpoint);
  if (previous && Date.now() - previous.at < maxAgeMs) return previous.answer;
  const answer = requestClient().request(
    { method: endpoint.method, path: endpoint.path },
    { noToken: true, noOverlay: true, silent: true, canCancel: false },
  );
  asked.set(endpoint, { at: Date.now(), answer });
  answer.catch(() => asked.delete(endpoint));
  return answer;
}

/**
 * The answer of a public endpoint without input that the pages before sign-in need (the login parameters,
 * whether the language selector is offered), shared by every caller; `undefined` until it is known, and
 * when it could not be asked (the page then shows what it shows without it).
 */
export function usePublicValue<E extends AnyEndpoint>(
  endpoint: E,
  maxAgeMs: number,
): EndpointResult<E> | undefined {
  const [value, setValue] = useState<EndpointResult<E> | undefined>(undefined);
  useEffect(() => {
    let current = true;
    ask(endpoint, maxAgeMs).then(
      (answer) => {
        if (current) setValue(answer as EndpointResult<E>);
      },
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [endpoint, maxAgeMs]);
  return value;
}
