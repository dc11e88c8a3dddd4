/**
 * `npm run bench [-- <mode>]`:
 *   slice    (default) writes, home-page reads and projection lag over HTTP
 */
const mode = process.argv[2] ?? 'slice';
if (mode === 'slice') await import('./slice-bench.ts');
else {
  process.stderr.write(`Unknown bench "${mode}": slice\n`);
  process.exit(2);
}
