/**
 * `npm run bench [-- <mode>]`:
 *   slice    (default) writes, home-page reads and projection lag over HTTP
 *   rebuild  a synthetic log of REBUILD_EVENTS (1,000,000) events, every projection rebuilt while reads go on
 */
const mode = process.argv[2] ?? 'slice';
if (mode === 'slice') await import('./slice-bench.ts');
else if (mode === 'rebuild') await import('./rebuild-bench.ts');
else {
  process.stderr.write(`Unknown bench "${mode}": slice or rebuild\n`);
  process.exit(2);
}
