/** Jobs whose options one read fetches (one round trip: cheap beside the carries around it). */
export const optionsPerRead = 1000;

/**
 * The options of `ids` as a move needs them, call by call: the first `firstPiece` ids read alone (so
 * the first carry waits for a small read only), then pieces of `optionsPerRead`; when a call first asks
 * for a piece, the next piece's read is sent too. Commands on one connection run in order, so a read
 * sent while carries are in flight is answered after them; sent a piece ahead, it is answered long
 * before its calls, and the store is not left idle waiting for a read.
 */
export function optionsAhead(
  ids: readonly string[],
  read: (ids: string[]) => Promise<Array<string | null>>,
  firstPiece: number,
): (start: number, count: number) => Promise<Array<string | null>> {
  const startOf = (piece: number) => (piece === 0 ? 0 : firstPiece + (piece - 1) * optionsPerRead);
  const pieceAt = (position: number) =>
    position < firstPiece ? 0 : 1 + Math.floor((position - firstPiece) / optionsPerRead);
  const pieces = new Map<number, Promise<Array<string | null>>>();
  const piece = (index: number) => {
    let pending = pieces.get(index);
    if (!pending) {
      pending = read(ids.slice(startOf(index), startOf(index + 1)));
      // Awaited when its calls come; until then a failed read must not count as unhandled.
      pending.catch(() => undefined);
      pieces.set(index, pending);
    }
    return pending;
  };
  return async (start, count) => {
    const [first, last] = [pieceAt(start), pieceAt(start + count - 1)];
    // This call's pieces first: on the connection the read ahead queues behind them.
    const own = Array.from({ length: last - first + 1 }, (_, index) => piece(first + index));
    if (startOf(last + 1) < ids.length && !pieces.has(last + 1)) {
      void piece(last + 1);
      // Calls start in order, so every call of the piece two back has its options by now: let them go.
      pieces.delete(last - 1);
    }
    const read: Array<string | null> = [];
    for (const pending of own) read.push(...(await pending));
    const offset = start - startOf(first);
    return read.slice(offset, offset + count);
  };
}
