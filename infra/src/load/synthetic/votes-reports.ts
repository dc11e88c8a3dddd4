import { authorOf, decideReport, decideVote, evolveReport, evolveVote, initialReportState, roleOf } from '@forum/command-service';
import { commentReportStream, isStaffRole, REPORT_FEEDBACK, voteStream, VOTES, type Vote } from '@forum/contracts';
import { decided, keptStream, registeredState, type SimulatedForum, type SyntheticEvent } from './simulated-forum.ts';

/*
 * Votes and reports, each decided by the forum's deciders on the (post, voter) and (comment, reporter)
 * streams the simulated forum keeps: a vote on one's own post or a report of one's own comment is refused
 * there, and the simulation picks someone else.
 */

const TRIES = 5;
/** A vote stream with no events: version 0, vote none. */
const NO_VOTE_YET = VOTES.indexOf('none');

/** What a voter does next: mostly like, and now and then take a vote back or turn it over. */
function nextVote(previous: Vote, rand: () => number): Vote {
  if (previous === 'none') return rand() < 0.78 ? 'up' : 'down';
  if (previous === 'up') return rand() < 0.6 ? 'none' : 'down';
  return rand() < 0.6 ? 'none' : 'up';
}

export function castVote(forum: SimulatedForum): SyntheticEvent[] | null {
  const post = forum.livePost();
  if (!post) return null;
  post.votes ??= new Map();
  for (let tries = 0; tries < TRIES; tries++) {
    const voter = forum.actor();
    const kept = post.votes.get(voter.n) ?? NO_VOTE_YET;
    const stream = keptStream(voteStream(post.id, voter.id), { current: VOTES[kept & 3]! }, evolveVote);
    stream.version = kept >> 2;
    const meta = forum.meta(voter.id);
    const out = forum.attempt(() =>
      forum.write(meta, [
        decided(
          stream,
          decideVote(
            {
              type: 'SetVote',
              data: {
                postId: post.id,
                userId: voter.id,
                vote: nextVote(stream.state.current, forum.random.rand),
                post: post.stream.state,
                voterIsStaff: isStaffRole(roleOf(voter.stream.state)),
              },
            },
            stream.state,
            meta,
          ),
        ),
      ]),
    );
    if (!out) continue;
    post.votes.set(voter.n, (stream.version << 2) | VOTES.indexOf(stream.state.current));
    return out;
  }
  return null;
}

export function reportComment(forum: SimulatedForum): SyntheticEvent[] | null {
  const { pick } = forum.random;
  for (let tries = 0; tries < 20 && forum.liveComments.length > 0; tries++) {
    const comment = pick(forum.liveComments);
    const reporter = forum.actor();
    const key = comment.n * 16_777_216 + reporter.n;
    const stream = forum.reports.get(key) ?? keptStream(commentReportStream(comment.id, reporter.id), initialReportState, evolveReport);
    const meta = forum.meta(reporter.id);
    const out = forum.attempt(() => {
      const command = {
        commentId: comment.id,
        reporter: authorOf(registeredState(reporter)!),
        reporterIsStaff: isStaffRole(roleOf(reporter.stream.state)),
        feedback: pick(REPORT_FEEDBACK),
        comment: comment.stream.state,
        post: comment.post.stream.state,
      };
      return forum.write(meta, [decided(stream, decideReport({ type: 'ReportComment', data: command }, stream.state, meta))]);
    });
    if (!out) continue;
    forum.reports.set(key, stream);
    return out;
  }
  return null;
}
