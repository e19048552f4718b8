import { useApp, useInput } from 'ink';
import { useRef, type Dispatch } from 'react';
import { readFilterInput } from './filter-input.js';
import type { TuiAction, TuiState } from './tui-state.js';
import type { TuiSource } from './tui-source.js';

/** What r and R say on a screen that may not reset buckets (a simulation). */
export const NO_RESET = "r/R are off here: a reset would change the simulation's results";

/** Binds the keys of the footer: q, arrows, r, R, p, /, s, ?. */
export function useKeys(
  source: TuiSource,
  state: TuiState,
  dispatch: Dispatch<TuiAction>,
  onQuit?: () => void,
): void {
  const { exit } = useApp();
  // Keys can arrive faster than the screen re-renders (a pasted filter): read the latest state
  // from a ref, and track filter editing synchronously.
  const latest = useRef(state);
  latest.current = state;
  const editing = useRef(state.editingFilter);
  // Toggled with each p as the screen's pause is, whether it has re-rendered or not.
  const paused = useRef(state.paused);

  useInput((input, key) => {
    const current = latest.current;
    if (editing.current) {
      if (key.return || key.escape) {
        editing.current = false;
        dispatch({ type: 'filter-end', keep: key.return });
      } else if (key.backspace || key.delete) dispatch({ type: 'filter-erase' });
      else if (input !== '' && !key.ctrl && !key.meta) {
        const typed = readFilterInput(input);
        if (typed.text !== '') dispatch({ type: 'filter-type', text: typed.text });
        if (typed.ends) {
          editing.current = false;
          dispatch({ type: 'filter-end', keep: true });
        }
      }
      return;
    }
    if (input === 'q' || (key.ctrl && input === 'c')) {
      onQuit?.();
      exit();
    } else if (key.upArrow || input === 'k') dispatch({ type: 'move', by: -1 });
    else if (key.downArrow || input === 'j') dispatch({ type: 'move', by: 1 });
    else if (input === 's') dispatch({ type: 'sort' });
    else if (input === 'p') {
      paused.current = !paused.current;
      source.hold?.(paused.current);
      dispatch({ type: 'pause', run: source.hold !== undefined });
    } else if (input === '?' || (key.escape && current.help)) dispatch({ type: 'help' });
    else if (input === '/') {
      editing.current = true;
      dispatch({ type: 'filter-start' });
    } else if (input === 'r' || input === 'R') {
      const { reset } = source;
      if (reset === undefined) {
        dispatch({ type: 'notice', text: NO_RESET });
        return;
      }
      const key = input === 'r' ? current.buckets[current.selected]?.key : undefined;
      if (input === 'r' && key === undefined) return;
      void reset(key).then(
        () =>
          dispatch({
            type: 'notice',
            text: key === undefined ? 'reset all buckets' : `reset ${key}`,
          }),
        (error: Error) => dispatch({ type: 'notice', text: `reset failed: ${error.message}` }),
      );
    }
  });
}
