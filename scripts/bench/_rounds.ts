/**
 * Microseconds per call of an in-process benchmark: one warm-up round, then `rounds` rounds of
 * `perRound` calls, each call's result summed so that none is optimised away.
 */
export async function microsPerCall(call: (i: number) => Promise<number>, perRound: number, rounds: number): Promise<{ median: number; fastest: number }> {
  let sink = 0;
  for (let i = 0; i < perRound; i++) sink += await call(i);
  const times: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const started = performance.now();
    for (let i = 0; i < perRound; i++) sink += await call(i);
    times.push(((performance.now() - started) * 1000) / perRound);
  }
  if (sink === 0) throw new Error('the calls returned nothing');
  times.sort((a, b) => a - b);
  return { median: times[Math.floor(times.length / 2)] as number, fastest: times[0] as number };
}
