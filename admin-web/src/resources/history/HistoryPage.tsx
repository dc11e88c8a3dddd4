import { HISTORY_KINDS, type History, type HistoryEntry, type HistoryKind, type HistoryState } from '@forum/contracts';
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  Chip,
  CircularProgress,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { useInfiniteQuery } from '@tanstack/react-query';
import { Fragment, useId, useState } from 'react';
import { HttpError, Link, useDataProvider } from 'react-admin';
import { useParams } from 'react-router-dom';
import { CardLine, usePhone } from '../../components/RecordCards';
import { ViewPostLink } from '../../components/ViewPostLink';
import { serverMessage, type ForumDataProvider } from '../../dataProvider';
import { PageTitle } from '../../layout/PageTitle';
import { isUserId, useHistoryPath } from './HistoryLink';
import { dataPreview, namesIn, streamLabel, subjectOf } from './historyLabels';
import { ChangesSummary, StateAfter } from './StateChanges';

const isKind = (kind: string | undefined): kind is HistoryKind => (HISTORY_KINDS as readonly (string | undefined)[]).includes(kind);

/** A refusal (4xx) is the answer; only a failure of the server or the network is worth a second try. */
const retryServerErrors = (failures: number, error: Error) => !(error instanceof HttpError && error.status < 500) && failures < 2;

/** A page of the history with the state after each of its events (none when they could not be read: the events still show). */
type HistoryPageRead = History & { states: HistoryState[] | null };

/**
 * GET /api/admin/history/:kind/:id through the data provider's getHistory, a page at a time, with
 * the states of the same page (getHistoryStates): the pages read so far as one history (their
 * events in order, their actors and states together; what comes next is the query's to know).
 */
function useHistory(kind: HistoryKind | null, id: string) {
  const dataProvider = useDataProvider<ForumDataProvider>();
  const query = useInfiniteQuery({
    queryKey: ['admin', 'getHistory', kind, id],
    queryFn: async ({ pageParam }): Promise<HistoryPageRead> => {
      const [page, states] = await Promise.all([
        dataProvider.getHistory(kind!, id, pageParam),
        dataProvider.getHistoryStates(kind!, id, pageParam).catch(() => null),
      ]);
      return { ...page, states: states?.states ?? null };
    },
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last: History) => last.nextAfter ?? undefined,
    enabled: kind !== null && id !== '',
    retry: retryServerErrors,
  });
  const pages = query.data?.pages;
  const data = pages?.[0] && {
    kind: pages[0].kind,
    id: pages[0].id,
    events: pages.flatMap((page) => page.events),
    actors: Object.fromEntries(pages.flatMap((page) => Object.entries(page.actors))),
    states: new Map(pages.flatMap((page) => (page.states ?? []).map((state) => [state.position, state] as const))),
  };
  return { ...query, data };
}

/** A long id at a glance: its first characters (the whole id on hover and in the opened data). */
const short = (id: string) => (id.length > 12 ? `${id.slice(0, 8)}…` : id);

/** Who caused an event: a user by name where known (to their history), else the id as it is. */
function Actor({ actor, names, self }: { actor: string; names: Map<string, string>; self: boolean }) {
  const historyPath = useHistoryPath();
  const name = names.get(actor);
  if (!isUserId(actor))
    return (
      <Typography variant="body2" sx={{ fontFamily: 'monospace' }}>
        {actor}
      </Typography>
    );
  if (self) return <Typography variant="body2">{name ?? short(actor)} (this user)</Typography>;
  return (
    <Link to={historyPath('user', actor)} variant="body2" title={actor} sx={{ fontFamily: name ? undefined : 'monospace' }}>
      {name ?? short(actor)}
    </Link>
  );
}

const oneLine = { overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' } as const;

/** An event's data in full, with its metadata (opened from its row or card), and the state after it. */
function EventData({ event, n, id, kind, state }: { event: HistoryEntry; n: number; id: string; kind: HistoryKind; state: HistoryState | undefined }) {
  return (
    <Box id={id}>
      <Typography variant="caption" component="p" color="text.secondary" sx={{ mb: 0.5, overflowWrap: 'anywhere' }}>
        {event.at} · stream {event.streamId}, event {event.version} · actor {event.actor} · correlation id {event.correlationId} · position {event.position}
      </Typography>
      <Box
        component="pre"
        aria-label={`Data of event ${n}, ${event.type}`}
        tabIndex={0}
        sx={{ m: 0, p: 1.5, bgcolor: 'grey.100', borderRadius: 1, overflowX: 'auto', fontSize: 13, whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}
      >
        {JSON.stringify(event.data, null, 2)}
      </Box>
      <StateAfter entry={state} kind={kind} n={n} type={event.type} />
    </Box>
  );
}

/** The button that shows or hides an event's data. */
function DataToggle({ event, n, open, dataId, onToggle }: { event: HistoryEntry; n: number; open: boolean; dataId: string; onToggle: () => void }) {
  return (
    <Button
      size="small"
      sx={{ flexShrink: 0 }}
      aria-expanded={open}
      aria-controls={open ? dataId : undefined}
      aria-label={`${open ? 'Hide' : 'Show'} data of event ${n}, ${event.type}`}
      onClick={onToggle}
    >
      {open ? 'Hide data' : 'Show data'}
    </Button>
  );
}

/** What an event's row or card shows: the event, its number in the history (from 1), the actors' names, whose history it is, the state after it. */
interface EventProps {
  event: HistoryEntry;
  state: HistoryState | undefined;
  n: number;
  names: Map<string, string>;
  kind: HistoryKind;
  id: string;
}

/** Which stream an event is of, and its number there: the kind at a glance, the whole stream id on hover. */
function StreamOf({ event }: { event: HistoryEntry }) {
  return (
    <Box component="span" title={event.streamId} sx={{ whiteSpace: 'nowrap' }}>
      {streamLabel(event.streamId, event.version)}
    </Box>
  );
}

/** On a phone, one event as a card: the row's facts one under another, its data a click away. */
function EventCard({ event, state, n, names, kind, id }: EventProps) {
  const [open, setOpen] = useState(false);
  const dataId = useId();
  return (
    <Card variant="outlined" component="article" aria-label={`Event ${n}, ${event.type}`} sx={{ overflowWrap: 'anywhere' }}>
      <CardContent sx={{ pb: 1 }}>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 0.5 }}>
          <Typography variant="body2" color="text.secondary">
            #{n}
          </Typography>
          <Chip size="small" variant="outlined" label={event.type} />
        </Stack>
        <CardLine label="Time">
          <time dateTime={event.at}>{new Date(event.at).toLocaleString()}</time>
        </CardLine>
        <CardLine label="Stream">
          <StreamOf event={event} />
        </CardLine>
        <CardLine label="Changes">
          <ChangesSummary entry={state} kind={kind} n={n} />
        </CardLine>
        <CardLine label="Actor">
          <Actor actor={event.actor} names={names} self={kind === 'user' && event.actor === id} />
        </CardLine>
        <CardLine label="Position">
          <Box component="span" sx={{ fontFamily: 'monospace' }}>
            {event.position}
          </Box>
        </CardLine>
        <CardLine label="Correlation id">
          <Box component="span" sx={{ fontFamily: 'monospace' }}>
            {event.correlationId}
          </Box>
        </CardLine>
        <DataToggle event={event} n={n} open={open} dataId={dataId} onToggle={() => setOpen(!open)} />
        {open && <EventData event={event} n={n} id={dataId} kind={kind} state={state} />}
      </CardContent>
    </Card>
  );
}

/** One event: its number, time, type, actor, position and correlation id; its data on one line and, opened, in full with its metadata. */
function EventRow({ event, state, n, names, kind, id }: EventProps) {
  const [open, setOpen] = useState(false);
  const dataId = useId();
  return (
    <Fragment>
      <TableRow sx={open ? { '& > td': { borderBottom: 'none' } } : undefined}>
        <TableCell>{n}</TableCell>
        <TableCell sx={{ whiteSpace: 'nowrap' }}>
          <time dateTime={event.at} title={event.at}>
            {new Date(event.at).toLocaleString()}
          </time>
        </TableCell>
        <TableCell>
          <Chip size="small" variant="outlined" label={event.type} />
          <Typography variant="caption" component="div" color="text.secondary" sx={{ mt: 0.25, pl: 0.5 }}>
            <StreamOf event={event} />
          </Typography>
        </TableCell>
        <TableCell sx={{ minWidth: 180, maxWidth: 280 }}>
          <ChangesSummary entry={state} kind={kind} n={n} />
        </TableCell>
        <TableCell sx={{ whiteSpace: 'nowrap' }}>
          <Actor actor={event.actor} names={names} self={kind === 'user' && event.actor === id} />
        </TableCell>
        <TableCell sx={{ fontFamily: 'monospace', whiteSpace: 'nowrap' }}>{event.position}</TableCell>
        <TableCell sx={{ fontFamily: 'monospace', whiteSpace: 'nowrap' }} title={event.correlationId}>
          {short(event.correlationId)}
        </TableCell>
        <TableCell sx={{ width: '100%', maxWidth: 0 }}>
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
            <Typography variant="body2" sx={{ fontFamily: 'monospace', color: 'text.secondary', flex: 1, minWidth: 0, ...oneLine }}>
              {dataPreview(event.data, 200)}
            </Typography>
            <DataToggle event={event} n={n} open={open} dataId={dataId} onToggle={() => setOpen(!open)} />
          </Stack>
        </TableCell>
      </TableRow>
      {open && (
        <TableRow>
          <TableCell colSpan={8} sx={{ pt: 0 }}>
            <EventData event={event} n={n} id={dataId} kind={kind} state={state} />
          </TableCell>
        </TableRow>
      )}
    </Fragment>
  );
}

/** The messages of a 400's fields (`details`), e.g. 'Not a post id'. */
function fieldMessages(error: HttpError): string[] {
  const details = (error.body as { error?: { details?: unknown } } | undefined)?.error?.details;
  if (!details || typeof details !== 'object') return [];
  return Object.values(details as Record<string, unknown>).flatMap((messages) =>
    Array.isArray(messages) ? messages.filter((m): m is string => typeof m === 'string') : [],
  );
}

function Failure({ kind, id, error, retry }: { kind: string; id: string; error: Error; retry: () => void }) {
  if (error instanceof HttpError && error.status === 404) {
    return (
      <Alert severity="info">
        No history: there is no {kind} with the id {id}.
      </Alert>
    );
  }
  if (error instanceof HttpError && error.status < 500) {
    const fields = fieldMessages(error);
    return <Alert severity="error">{fields.length > 0 ? fields.join('. ') : serverMessage(error, 'This history cannot be shown')}</Alert>;
  }
  return (
    <Alert
      severity="error"
      action={
        <Button color="inherit" size="small" onClick={retry}>
          Retry
        </Button>
      }
    >
      {serverMessage(error, 'Failed to load the history')}
    </Alert>
  );
}

/**
 * The history of a user or a post (/admin/history/:kind/:id; docs/operations/history.md): a user's
 * is what they did and what was done about them, a post's is the post with its comments, votes and
 * reports; oldest first, as `forumctl history` shows them (number, time, type, stream, actor,
 * position, correlation id) with what each changed in the user's or the post's own state, each
 * event's data and the whole state after it a click away; a page at a time ('Show more events').
 */
export function HistoryPage() {
  const params = useParams<{ kind: string; id: string }>();
  const kind = isKind(params.kind) ? params.kind : null;
  const id = params.id ?? '';
  const { data, error, isPending, refetch, hasNextPage, fetchNextPage, isFetchingNextPage } = useHistory(kind, id);
  const subject = kind && data ? subjectOf(kind, id, data.events) : kind ? `${kind} ${id}` : 'an unknown kind';
  const heading = `History of ${subject}`;
  // the forum's names of the actors, else those the stream's own events give
  const phone = usePhone();
  const names = new Map<string, string>(
    data ? [...namesIn(data.events), ...Object.entries(data.actors).map(([actor, person]) => [actor, person.name] as const)] : [],
  );

  return (
    <Box sx={{ py: 2 }}>
      <PageTitle title="History" />
      <Card>
        <CardContent>
          <Typography variant="h5" component="h1" sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>
            {heading}
          </Typography>
          {data && (
            <Stack direction="row" spacing={2} useFlexGap sx={{ mt: 0.5, alignItems: 'center', flexWrap: 'wrap' }}>
              <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
                {kind === 'user' ? 'What they did and what was done about them' : 'The post with its comments, votes and reports'}:{' '}
                {hasNextPage ? `the first ${data.events.length} events` : `${data.events.length} ${data.events.length === 1 ? 'event' : 'events'}`}, oldest
                first
              </Typography>
              {kind === 'post' && <ViewPostLink postId={id} />}
            </Stack>
          )}
        </CardContent>
        {!kind && (
          <CardContent>
            <Alert severity="error">Only users and posts have a history here.</Alert>
          </CardContent>
        )}
        {kind && isPending && !error && (
          <Box role="status" aria-label="Loading the history" sx={{ display: 'flex', justifyContent: 'center', p: 4 }}>
            <CircularProgress />
          </Box>
        )}
        {kind && error && (
          <CardContent>
            <Failure kind={kind} id={id} error={error} retry={() => void refetch()} />
          </CardContent>
        )}
        {kind && data && phone && (
          <Stack spacing={1.5} sx={{ p: 1 }} role="list" aria-label={`Events of ${subject}`}>
            {data.events.map((event, i) => (
              <Box role="listitem" key={event.position}>
                <EventCard event={event} state={data.states.get(event.position)} n={i + 1} names={names} kind={kind} id={id} />
              </Box>
            ))}
          </Stack>
        )}
        {kind && data && !phone && (
          <TableContainer>
            <Table size="small" aria-label={`Events of ${subject}`}>
              <TableHead>
                <TableRow sx={{ '& > th': { whiteSpace: 'nowrap' } }}>
                  <TableCell>#</TableCell>
                  <TableCell>Time</TableCell>
                  <TableCell>Event (stream)</TableCell>
                  <TableCell>Changes</TableCell>
                  <TableCell>Actor</TableCell>
                  <TableCell>Position</TableCell>
                  <TableCell>Correlation id</TableCell>
                  <TableCell>Data</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {data.events.map((event, i) => (
                  <EventRow key={event.position} event={event} state={data.states.get(event.position)} n={i + 1} names={names} kind={kind} id={id} />
                ))}
              </TableBody>
            </Table>
          </TableContainer>
        )}
        {kind && data && hasNextPage && (
          <CardContent sx={{ display: 'flex', justifyContent: 'center' }}>
            <Button variant="outlined" aria-disabled={isFetchingNextPage} onClick={() => isFetchingNextPage || void fetchNextPage()}>
              {isFetchingNextPage ? 'Loading more events...' : 'Show more events'}
            </Button>
          </CardContent>
        )}
      </Card>
    </Box>
  );
}
