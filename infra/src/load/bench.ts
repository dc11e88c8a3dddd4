/**
 * `npm run bench [-- <mode>]`:
 *   slice    (default) writes, home-page reads and projection lag over HTTP
 *   rebuild  a synthetic log of REBUILD_EVENTS (1,000,000) events, every projection rebuilt while reads go on
 *   scale    a synthetic log of SCALE_EVENTS (1,000,000) events; every read and the main commands side by side with a bare node:http + pg server
 *   web      the JavaScript the web apps make a browser download: the home page's initial load, each route's
 *   live     the change stream: idle streams one process holds and their memory, the time from a command's answer to 1,000 clients
 *   replicas the replicated layout: commands/s with one and two command services, reads/s with one and two query services, the runner's fail-over
 *   chaos    the replicated layout for CHAOS_SECONDS (300) while members write and read, its services killed at random and PostgreSQL once: nothing lost, every part back
 *   notifications  a comment on a post with 10,000 followers: its latency beside a comment on a post without followers, the time until every follower's notification is readable
 *   sitemap  the sitemap's index and files at SITEMAP_POSTS (1,000,000) posts: the time of each answer, the projection's build
 *   pages    a post's page as HTML: rendered, kept in memory, and its JSON, with the page's size
 *   lighthouse  Lighthouse's mobile audit of the home page and a post page: the four scores, LCP, CLS, TBT, FCP
 *   search   full-text searches no cache can answer at SEARCH_EVENTS (1,000,000) events, from 1, 4 and 20 clients: searches/s, p50, p99, CPU a search
 *   mailer   the notifications' mailer over a backlog of MAIL_PENDING (300,000) notifications: its passes and the mails a second
 */
const mode = process.argv[2] ?? 'slice';
if (mode === 'slice') await import('./slice-bench.ts');
else if (mode === 'rebuild') await import('./rebuild-bench.ts');
else if (mode === 'scale') await import('./scale-bench.ts');
else if (mode === 'web') await import('./web-bench.ts');
else if (mode === 'live') await import('./live-bench.ts');
else if (mode === 'replicas') await import('./replicas-bench.ts');
else if (mode === 'notifications') await import('./notifications-bench.ts');
else if (mode === 'chaos') await import('./chaos-bench.ts');
else if (mode === 'sitemap') await import('./sitemap-bench.ts');
else if (mode === 'pages') await import('./pages-bench.ts');
else if (mode === 'lighthouse') await import('./lighthouse-bench.ts');
else if (mode === 'search') await import('./search-bench.ts');
else if (mode === 'mailer') await import('./mailer-bench.ts');
else {
  process.stderr.write(
    `Unknown bench "${mode}": slice, rebuild, scale, web, live, replicas, notifications, chaos, sitemap, pages, lighthouse, search or mailer\n`,
  );
  process.exit(2);
}
