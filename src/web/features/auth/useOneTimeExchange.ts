import { useEffect, useRef, useState } from 'react';

type ExchangeState<T> = { status: 'pending' } | { status: 'done'; value: T } | { status: 'failed'; error: unknown };

/**
 * Runs a one-time exchange (a single-use link token) exactly once per key, even when React mounts
 * the effect twice in development: the promise is kept and each mount only listens to it.
 */
export function useOneTimeExchange<T>(key: string | null, exchange: (key: string) => Promise<T>): ExchangeState<T> {
  const started = useRef<{ key: string; promise: Promise<T> } | null>(null);
  const [state, setState] = useState<ExchangeState<T>>({ status: 'pending' });

  useEffect(() => {
    if (!key) return;
    if (started.current?.key !== key) started.current = { key, promise: exchange(key) };
    let active = true;
    started.current.promise.then(
      (value) => active && setState({ status: 'done', value }),
      (error: unknown) => active && setState({ status: 'failed', error }),
    );
    return () => {
      active = false;
    };
    // The exchange function is not a dependency: a new key is what starts a new exchange.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);

  return state;
}
