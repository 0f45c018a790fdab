import { Globe, MessageSquareText, Mic, Pencil, Trash2 } from 'lucide-react';
import { memo, useEffect, useId, useReducer, useRef, useState } from 'react';
import type { EntrySource, JournalEntry } from '../../../shared/journal';
import { messages } from '../../../shared/messages';
import { cn } from '../../components/ui/cn';
import { loadOnce } from '../../components/ui/load-once';
import { collapseText } from './collapse';
import { journalCopy } from './copy';
import { entryTextParts } from './entry-links';
import { formatEntryDay, formatShortDay, localMoment } from './dates';
import { DeleteEntryDialog, PhotoLightbox } from './dialogs';
import { EntryEditor } from './EntryEditor';
import { looksLikeMarkdown } from './markdown-syntax';
import { photoAlt } from './photo-rules';
import { PhotoImg } from './photo-src';
import { markSearchTerms, searchMarkRanges } from './search-marks';
import { EntryRecordings, VoiceNoteRecorder, voiceCopy } from '../voice';

/** The Markdown renderer: loaded only when an entry on screen uses Markdown. */
const markdownCode = loadOnce(() => import('./markdown'));

const NO_TERMS: readonly string[] = [];

const iconButton =
  'flex size-9 items-center justify-center rounded-full text-stone-500 transition-colors hover:bg-stone-100 hover:text-ink';

/**
 * One journal entry: read it, expand it, look at its photos, edit or delete it. `timeZone`: the
 * profile's, for its times; `terms`: the search's, marked in the text. Memoised: the list re-renders
 * as its queries refetch, with the same entries.
 */
export const EntryCard = memo(function EntryCard({ entry, timeZone, terms = NO_TERMS }: { entry: JournalEntry; timeZone?: string; terms?: readonly string[] }) {
  const headingId = useId();
  const [editing, setEditing] = useState(false);
  const [lightbox, setLightbox] = useState<number | null>(null);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [recorderOpen, setRecorderOpen] = useState(false);
  const editButton = useRef<HTMLButtonElement>(null);
  const recordButton = useRef<HTMLButtonElement>(null);
  const day = formatEntryDay(entry.entry_date);
  // An entry kept in its own zone (an imported trip) shows its time there, and names the zone.
  const added = localMoment(new Date(entry.created_at), entry.time_zone ?? timeZone);
  const otherZone = entry.time_zone && entry.time_zone !== timeZone ? entry.time_zone : null;
  // Written on a later day (a YESTERDAY: text, an entry for a past day): say when, not just a time.
  const addedLater = added !== null && added.date > entry.entry_date;

  const stopEditing = () => {
    setEditing(false);
    // Back to where editing began, once the button is rendered again.
    requestAnimationFrame(() => editButton.current?.focus());
  };

  const closeRecorder = () => {
    setRecorderOpen(false);
    requestAnimationFrame(() => recordButton.current?.focus());
  };

  return (
    // wrap-anywhere: a long address or unbroken word wraps inside the card instead of widening the page.
    <article aria-labelledby={headingId} className="rounded-2xl border border-stone-200/80 bg-white px-5 py-5 shadow-sm wrap-anywhere sm:px-8 sm:py-7">
      <header className="flex items-start justify-between gap-3">
        <div className="min-w-0">
          <h2 id={headingId} className="text-sm font-semibold tracking-wide text-brand-800">
            <time dateTime={entry.entry_date}>{day}</time>
          </h2>
          <p className="mt-1 flex flex-wrap items-center gap-2 text-xs text-stone-500">
            {added &&
              (addedLater ? (
                <span>
                  {journalCopy.addedLater} ·{' '}
                  <time dateTime={entry.created_at}>
                    {formatShortDay(added.date, entry.entry_date)}, {added.time}
                  </time>
                </span>
              ) : (
                <time dateTime={entry.created_at}>{added.time}</time>
              ))}
            {added && otherZone && <span title={otherZone}>{messages.entryZone(otherZone)}</span>}
            <SourceBadge source={entry.source} />
          </p>
        </div>
        {!editing && (
          <div className="-mt-1 -mr-2 flex shrink-0 items-center">
            {/* A voice note goes to a saved entry at once, beside the text, not through the editor's Save. */}
            <button
              ref={recordButton}
              type="button"
              onClick={() => setRecorderOpen((open) => !open)}
              aria-label={voiceCopy.recordFor(day)}
              aria-expanded={recorderOpen}
              className={cn(iconButton, recorderOpen && 'bg-stone-100 text-ink')}
            >
              <Mic aria-hidden="true" className="size-4" />
            </button>
            <button ref={editButton} type="button" onClick={() => setEditing(true)} aria-label={`Edit entry from ${day}`} className={iconButton}>
              <Pencil aria-hidden="true" className="size-4" />
            </button>
            <button
              type="button"
              onClick={() => setConfirmDelete(true)}
              aria-label={`Delete entry from ${day}`}
              className={cn(iconButton, 'hover:bg-red-50 hover:text-red-700')}
            >
              <Trash2 aria-hidden="true" className="size-4" />
            </button>
          </div>
        )}
      </header>

      {editing ? (
        <div className="mt-5">
          <EntryEditor entry={entry} day={day} onDone={stopEditing} />
        </div>
      ) : (
        <>
          {entry.title && (
            <h3 className="mt-4 font-serif text-xl font-semibold text-ink sm:text-2xl">
              <Marked text={entry.title} terms={terms} />
            </h3>
          )}
          {/* Keyed by the search: a new search decides afresh whether the card opens on its hit. */}
          {entry.content && <EntryText key={terms.join('\n')} content={entry.content} terms={terms} />}
          {entry.tags.length > 0 && (
            <ul aria-label="Tags" className="mt-4 flex flex-wrap gap-1.5">
              {entry.tags.map((tag) => (
                <li key={tag} className="rounded-full bg-brand-50 px-2.5 py-0.5 text-xs font-medium text-brand-800">
                  #{tag}
                </li>
              ))}
            </ul>
          )}
          {entry.photos.length > 0 && (
            <ul aria-label="Photos" className="mt-5 grid grid-cols-3 gap-2 sm:grid-cols-4">
              {entry.photos.map((photo, index) => (
                <li key={photo.id}>
                  <button
                    type="button"
                    onClick={() => setLightbox(index)}
                    aria-label={`Open photo ${index + 1} of ${entry.photos.length}`}
                    className="block aspect-square w-full overflow-hidden rounded-xl bg-stone-100"
                  >
                    <PhotoImg
                      src={photo.thumbnail_url}
                      alt={photoAlt(index, entry.photos.length, day)}
                      loading="lazy"
                      className="size-full object-cover transition-transform duration-300 hover:scale-105"
                    />
                  </button>
                </li>
              ))}
            </ul>
          )}
          <EntryRecordings entryId={entry.id} recordings={entry.recordings ?? []} />
          <VoiceNoteRecorder entryId={entry.id} open={recorderOpen} onClose={closeRecorder} />
        </>
      )}

      <PhotoLightbox photos={entry.photos} index={lightbox} onIndexChange={setLightbox} day={day} />
      <DeleteEntryDialog entryId={entry.id} open={confirmDelete} onOpenChange={setConfirmDelete} />
    </article>
  );
});

function SourceBadge({ source }: { source: EntrySource }) {
  const sms = source === 'sms';
  const Icon = sms ? MessageSquareText : Globe;
  return (
    <span
      className={cn(
        'inline-flex items-center gap-1 rounded-full px-2 py-0.5 text-[0.6875rem] font-semibold',
        sms ? 'bg-amber-50 text-amber-800' : 'bg-brand-50 text-brand-800',
      )}
    >
      <Icon aria-hidden="true" className="size-3" />
      {sms ? 'SMS' : 'Web'}
    </span>
  );
}

/** Text with the search's hits in <mark>. */
function Marked({ text, terms }: { text: string; terms: readonly string[] }) {
  if (terms.length === 0) return text;
  return markSearchTerms(text, terms).map((part, index) =>
    part.marked ? (
      <mark key={index} className="rounded-sm bg-amber-200/80 text-inherit">
        {part.text}
      </mark>
    ) : (
      part.text
    ),
  );
}

/** The Markdown renderer once an entry that needs it has loaded it; null before (the text shows plain meanwhile). */
function useMarkdownRenderer(needed: boolean) {
  const [, rerender] = useReducer((n: number) => n + 1, 0);
  useEffect(() => {
    if (needed && !markdownCode.loaded()) markdownCode.load().then(rerender, () => undefined);
  }, [needed]);
  return needed ? markdownCode.loaded() : null;
}

const textClasses = 'max-w-[68ch] font-serif text-[1.0625rem] leading-7 sm:leading-8 text-stone-800 sm:text-lg';

/**
 * The text, collapsed to its first lines when long, with Show more / Show less; Markdown rendered,
 * search hits marked, and opened at once when a hit lies in the part Show more hides.
 */
function EntryText({ content, terms }: { content: string; terms: readonly string[] }) {
  const textId = useId();
  const collapsed = collapseText(content);
  // Without its ellipsis, the collapsed text is the start of the content.
  const shownLength = collapsed.text.length - 1;
  const [choice, setExpanded] = useState<boolean | null>(null);
  const expanded = choice ?? (collapsed.truncated && searchMarkRanges(content, terms).some(([, end]) => end > shownLength));
  const cut = !expanded && collapsed.truncated;
  const shown = cut ? collapsed.text : content;
  const markdown = useMarkdownRenderer(looksLikeMarkdown(content));
  const parts = entryTextParts(shown, { cut });
  return (
    <div className="mt-3">
      {markdown ? (
        <div id={textId} className={cn(textClasses, 'entry-markdown')} dangerouslySetInnerHTML={{ __html: markdown.renderMarkdown(shown, terms) }} />
      ) : (
        <p id={textId} className={cn(textClasses, 'whitespace-pre-wrap')}>
          {parts.map((part, index) =>
            part.href ? (
              <a
                key={index}
                href={part.href}
                target="_blank"
                rel="noopener noreferrer nofollow"
                className="text-brand-700 underline underline-offset-2 hover:text-brand-900"
              >
                <Marked text={part.text} terms={terms} />
              </a>
            ) : (
              <Marked key={index} text={part.text} terms={terms} />
            ),
          )}
        </p>
      )}
      {collapsed.truncated && (
        <button
          type="button"
          onClick={() => setExpanded(!expanded)}
          aria-expanded={expanded}
          aria-controls={textId}
          className="mt-2 rounded text-sm font-medium text-brand-700 underline-offset-4 hover:underline"
        >
          {expanded ? journalCopy.showLess : journalCopy.showMore}
        </button>
      )}
    </div>
  );
}
