//! The find-order form's state: the chosen filter and its text, the text's problem, and the
//! lookup. `?mobile=…` in the address fills the form and looks up at once.

import { useMutation } from '@tanstack/react-query';
import { useEffect, useRef, useState, type SyntheticEvent } from 'react';
import { useSearchParams } from 'react-router';
import { findOrders } from './api';
import { checkFind, type FindCheck, type FindFilter, type FindRequest } from './findOrder';

export type FindProblem = Extract<FindCheck, { ok: false }>['error'];

export function useFindOrders() {
  const [params, setParams] = useSearchParams();
  const initialMobile = params.get('mobile') ?? '';
  const [filter, setFilter] = useState<FindFilter>('mobile');
  const [text, setText] = useState(initialMobile);
  const [invalid, setInvalid] = useState<FindProblem | null>(null);

  const find = useMutation({
    mutationFn: (request: FindRequest) => findOrders(request),
  });
  const { mutate } = find;

  // Searches once for a number given in the address (a second effect run in development
  // must not search twice).
  const searched = useRef(false);
  useEffect(() => {
    if (searched.current || initialMobile === '') return;
    searched.current = true;
    const check = checkFind('mobile', initialMobile);
    if (check.ok) mutate(check.request);
    else setInvalid(check.error);
  }, [initialMobile, mutate]);

  const submit = (e: SyntheticEvent) => {
    e.preventDefault();
    const check = checkFind(filter, text);
    if (!check.ok) {
      setInvalid(check.error);
      return;
    }
    setInvalid(null);
    mutate(check.request);
  };

  const reset = () => {
    setFilter('mobile');
    setText('');
    setInvalid(null);
    find.reset();
    if (params.has('mobile')) setParams({}, { replace: true });
  };

  const chooseFilter = (next: FindFilter) => {
    setFilter(next);
    setInvalid(null);
  };

  return { filter, chooseFilter, text, setText, invalid, find, submit, reset };
}

export type FindOrders = ReturnType<typeof useFindOrders>;
