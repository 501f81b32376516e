import { useFetcher } from '@remix-run/react';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { screenQueryFromForm } from '~/services/screener/builder';

// With JavaScript, results follow the screener form as it is edited: the edited screen loads in
// the background and the address bar follows, while the form keeps focus. Without JavaScript
// every change is a submit of the same GET form, and this does nothing.

export function useLiveScreen<T>(search: string) {
  const live = useFetcher<T>();
  const [liveSearch, setLiveSearch] = useState<string | null>(null);
  const timer = useRef<number | undefined>(undefined);
  useEffect(() => {
    // A real navigation (a submit, a link) wins over a pending live edit.
    window.clearTimeout(timer.current);
    setLiveSearch(null);
  }, [search]);
  const onEdit = (event: FormEvent<HTMLFormElement>) => {
    const form = event.currentTarget;
    window.clearTimeout(timer.current);
    timer.current = window.setTimeout(() => {
      const query = `?${screenQueryFromForm(new FormData(form))}`;
      setLiveSearch(query);
      live.load(`/screener${query}`);
      window.history.replaceState(window.history.state, '', `/screener${query}`);
    }, 400);
  };
  return {
    /** The live data while an edit is shown, else null (show the loader's data). */
    data: liveSearch !== null && live.data ? live.data : null,
    search: liveSearch ?? search,
    loading: live.state === 'loading',
    onEdit,
    cancel: () => window.clearTimeout(timer.current),
  };
}
