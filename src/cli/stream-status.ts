// What a tail says on stderr while its event stream reconnects (see client/event-stream.ts onStatus).

/**
 * The line for one status change. `away`: the previous change was a loss too, so this is a further
 * try: the loss is said in full once, each further try briefly, so a long outage is not a wall of it.
 */
export function streamStatusLine(away: boolean, detail: string, retryInMs?: number): string {
  return `vtr: ${away && retryInMs !== undefined ? `still unreachable; trying again in ${retryInMs / 1000}s…` : detail}`;
}
