import { createHash } from 'node:crypto';
import type { ForumCommands } from '@forum/command-service';
import type { Logger } from '@forum/platform';
import type { IdentityRealm } from '@forum/identity';

export const DEMO_PASSWORD = 'Forum#2026';

export const DEMO_ACCOUNTS = [
  // 'admin' is a reserved handle (contracts' RESERVED_HANDLES)
  { email: 'admin@forum.local', name: 'Forum Admin', handle: 'forum_admin', roles: ['admin'] },
  { email: 'alice@forum.local', name: 'Alice Martin', handle: 'alice', roles: [] },
  { email: 'bob@forum.local', name: 'Bob Chen', handle: 'bob', roles: [] },
] as const;

const DEMO_TAGS = ['JavaScript', 'React', 'Node.js', 'Databases', 'Career', 'Design', 'DevOps', 'Off-topic'];

const DEMO_POSTS: { author: string; title: string; description: string; tags: string[] }[] = [
  {
    author: 'alice@forum.local',
    title: 'Welcome to the forum!',
    description:
      'Hi everyone, this is the place to ask questions, share what you are building and help each other out. Please be kind, stay on topic and report anything that breaks the rules.',
    tags: ['Off-topic'],
  },
  {
    author: 'bob@forum.local',
    title: 'How do you structure a large React app?',
    description:
      'Our app has grown to about 200 components and the folder layout no longer helps. Do you group by feature, by type, or something else? What has worked for you after a year or two?',
    tags: ['React', 'JavaScript'],
  },
  {
    author: 'alice@forum.local',
    title: 'PostgreSQL indexes for paginated lists',
    description:
      'Offset pagination gets slow on big tables. Keyset pagination with a composite index on (created_at, id) fixed it for us: here is what we measured before and after the change.',
    tags: ['Databases'],
  },
  {
    author: 'bob@forum.local',
    title: 'Node.js 20 vs 22 in production',
    description:
      'We are planning the upgrade. Has anyone hit problems with native modules or the new test runner? Any numbers on memory use after moving to 22?',
    tags: ['Node.js', 'DevOps'],
  },
  {
    author: 'alice@forum.local',
    title: 'Moving from design to front-end development',
    description:
      'After five years as a product designer I want to write front-end code full time. Which skills should I build first, and how did you show your work when you made the switch?',
    tags: ['Career', 'Design'],
  },
  {
    author: 'bob@forum.local',
    title: 'Zero-downtime deploys with a single server',
    description:
      'Blue-green with two processes behind nginx works, but the database migrations are the hard part. How do you order migrations and deploys so that both versions run at once?',
    tags: ['DevOps', 'Databases'],
  },
];

const SEED_ACTOR = 'system:seed';

/**
 * Demo data for a first start: the three accounts, a set of tags and a few
 * posts. Every write carries an idempotency key, so a start that was cut off
 * halfway completes the seed next time and a finished one writes nothing.
 * Answers how many events it wrote.
 */
export async function seedDemoData(realm: IdentityRealm, commands: ForumCommands, logger: Logger): Promise<number> {
  const accounts = new Map<string, { id: string; name: string; email: string; picture: string }>();
  for (const demo of DEMO_ACCOUNTS) {
    let account = await realm.accounts.findByEmail(demo.email);
    if (!account) {
      // the operator vouches for the demo addresses
      await realm.accounts.create({
        email: demo.email,
        password: DEMO_PASSWORD,
        name: demo.name,
        handle: demo.handle,
        roles: [...demo.roles],
        emailVerified: true,
      });
      account = await realm.accounts.findByEmail(demo.email);
    }
    accounts.set(demo.email, account!);
  }

  const meta = (step: string) => ({
    actorId: SEED_ACTOR,
    now: new Date(),
    correlationId: 'seed',
    causationId: null,
    requestId: `seed:${step}`,
  });
  const once = (step: string) => ({ key: `seed:${step}`, fingerprint: 'seed' });
  const uuidFor = (step: string) => {
    const hex = createHash('sha256').update(`forum-demo:${step}`).digest('hex');
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
  };

  let written = 0;
  // The forum's own records of the demo users; the admin's role is a forum fact, granted by an event
  for (const demo of DEMO_ACCOUNTS) {
    const account = accounts.get(demo.email)!;
    const who = { userId: account.id, email: account.email, name: account.name, photoURL: account.picture, handle: demo.handle };
    const step = `user:${demo.email}`;
    await commands.registerUser(who, { ...meta(step), actorId: account.id });
    if (
      (demo.roles as readonly string[]).includes('admin') &&
      (await commands.grantAdmin(account.id, 'demo-data', meta(`admin:${demo.email}`))).answer.position
    )
      written++;
  }
  for (const name of DEMO_TAGS) {
    const step = `tag:${name}`;
    const result = await commands.createTag({ tagId: uuidFor(step), name }, meta(step), once(step)).catch((error: { code?: string }) => {
      if (error.code === 'TAG_EXISTS') return { duplicate: true };
      throw error;
    });
    if (!result.duplicate) written++;
  }
  for (const [index, post] of DEMO_POSTS.entries()) {
    const author = accounts.get(post.author)!;
    const step = `post:${index}`;
    const result = await commands.createPost(
      { userId: author.id, email: author.email, name: author.name, photoURL: author.picture },
      { postId: uuidFor(step), title: post.title, description: post.description, tags: post.tags },
      // spread the demo posts over the last hours so the newest-first order reads naturally
      { ...meta(step), actorId: author.id, now: new Date(Date.now() - (DEMO_POSTS.length - index) * 3_600_000) },
      once(step),
    );
    if (!result.duplicate) written++;
  }
  if (written > 0) logger.info({ events: written }, 'demo data written');
  return written;
}
