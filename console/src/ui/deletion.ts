// Deleting what a page shows, behind a confirmation: `ask()` opens the Confirm (`confirm` are its
// open, cancel and confirm props); once deleted, its query is dropped, the lists of its kind are
// asked again, and `done` runs (the page goes back to the list).
import { type QueryKey, useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';

export function useDeletion({
  remove,
  key,
  lists,
  done,
}: {
  remove: () => Promise<unknown>;
  key: QueryKey;
  lists: QueryKey;
  done: () => void;
}) {
  const queries = useQueryClient();
  const [asking, setAsking] = useState(false);
  const mutation = useMutation({
    mutationFn: remove,
    onSuccess: async () => {
      queries.removeQueries({ queryKey: key });
      await queries.invalidateQueries({ queryKey: lists });
      done();
    },
  });
  return {
    mutation,
    ask: () => setAsking(true),
    confirm: {
      open: asking,
      onCancel: () => setAsking(false),
      onConfirm: () => {
        setAsking(false);
        mutation.mutate();
      },
    },
  };
}
