import { Search, SlidersHorizontal, X } from 'lucide-react';
import { useId, useState } from 'react';
import { splitTags } from '../../../shared/journal-rules';
import { Button } from '../../components/ui/Button';
import { Checkbox } from '../../components/ui/Checkbox';
import { cn } from '../../components/ui/cn';
import { Input } from '../../components/ui/Input';
import { countRefinements, emptyFilter, isFilterActive, type SearchFilter, type SourceFilter } from './filters';
import { labelClasses } from './form-styles';
import { useDebouncedDraft } from './useSearchFilter';

const trimText = (draft: string) => draft.trim();
const tagList = (draft: string) => splitTags(draft).join(',');

const SOURCES: { value: SourceFilter; label: string }[] = [
  { value: 'all', label: 'All' },
  { value: 'web', label: 'Web' },
  { value: 'sms', label: 'SMS' },
  { value: 'voice', label: 'Voice' },
];

/** Spec 3's search filter: words (debounced), from/to, tags, source and has-photos. */
export function SearchBar({ filter, onFilterChange }: { filter: SearchFilter; onFilterChange: (next: SearchFilter) => void }) {
  const id = useId();
  const refinements = countRefinements(filter);
  const [panelOpen, setPanelOpen] = useState(refinements > 0);
  const [text, setText] = useDebouncedDraft(filter.text, trimText, (value) => onFilterChange({ ...filter, text: value }));
  const [tags, setTags] = useDebouncedDraft(filter.tags.join(','), tagList, (value) => onFilterChange({ ...filter, tags: splitTags(value) }));
  const set = (changes: Partial<SearchFilter>) => onFilterChange({ ...filter, ...changes });

  const clear = () => {
    setText('');
    setTags('');
    onFilterChange(emptyFilter);
  };

  return (
    <div role="search" className="space-y-3">
      <div className="flex gap-2">
        <div className="relative min-w-0 flex-1">
          <Search aria-hidden="true" className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-stone-400" />
          <Input
            type="search"
            aria-label="Search entries"
            placeholder="Search your journal…"
            value={text}
            onChange={(e) => setText(e.target.value)}
            className="h-11 rounded-xl pl-9"
          />
        </div>
        <Button
          variant="secondary"
          className="h-11 shrink-0 rounded-xl"
          aria-expanded={panelOpen}
          aria-controls={`${id}-panel`}
          onClick={() => setPanelOpen((open) => !open)}
        >
          <SlidersHorizontal aria-hidden="true" className="size-4" />
          <span className="hidden sm:inline">Filters</span>
          <span className="sr-only sm:hidden">Filters</span>
          {refinements > 0 && (
            <span className="flex size-5 items-center justify-center rounded-full bg-brand-700 text-xs text-white" aria-label={`${refinements} active`}>
              {refinements}
            </span>
          )}
        </Button>
      </div>

      {panelOpen && (
        <div id={`${id}-panel`} className="grid gap-4 rounded-2xl border border-stone-200/80 bg-white/70 p-4 sm:grid-cols-2">
          <div className="grid grid-cols-2 gap-3 sm:col-span-2">
            <div className="space-y-1.5">
              <label htmlFor={`${id}-from`} className={labelClasses}>
                From
              </label>
              <Input id={`${id}-from`} type="date" value={filter.dateFrom} max={filter.dateTo || undefined} onChange={(e) => set({ dateFrom: e.target.value })} />
            </div>
            <div className="space-y-1.5">
              <label htmlFor={`${id}-to`} className={labelClasses}>
                To
              </label>
              <Input id={`${id}-to`} type="date" value={filter.dateTo} min={filter.dateFrom || undefined} onChange={(e) => set({ dateTo: e.target.value })} />
            </div>
          </div>
          <div className="space-y-1.5 sm:col-span-2">
            <label htmlFor={`${id}-tags`} className={labelClasses}>
              Tags
            </label>
            <Input id={`${id}-tags`} value={tags} onChange={(e) => setTags(e.target.value)} placeholder="gratitude, family" />
          </div>
          <fieldset>
            <legend className={labelClasses}>Source</legend>
            <div className="mt-1.5 inline-flex rounded-lg border border-stone-300 bg-white p-0.5">
              {SOURCES.map((option) => (
                <label key={option.value} className="relative">
                  <input
                    type="radio"
                    name={`${id}-source`}
                    value={option.value}
                    checked={filter.source === option.value}
                    onChange={() => set({ source: option.value })}
                    className="peer sr-only"
                  />
                  <span
                    className={cn(
                      'block cursor-pointer rounded-md px-3.5 py-1.5 text-sm font-medium text-stone-600',
                      'peer-checked:bg-brand-700 peer-checked:text-white',
                      'peer-focus-visible:outline-2 peer-focus-visible:outline-offset-1 peer-focus-visible:outline-brand-600',
                    )}
                  >
                    {option.label}
                  </span>
                </label>
              ))}
            </div>
          </fieldset>
          <div className="flex items-center gap-2.5 sm:self-end sm:pb-2">
            <Checkbox id={`${id}-photos`} checked={filter.hasPhotos} onCheckedChange={(checked) => set({ hasPhotos: checked === true })} className="mt-0" />
            <label htmlFor={`${id}-photos`} className="text-sm font-medium text-stone-700">
              Has photos
            </label>
          </div>
        </div>
      )}

      {isFilterActive(filter) && (
        <div className="flex justify-end">
          <button type="button" onClick={clear} className="inline-flex items-center gap-1 rounded text-sm font-medium text-brand-700 hover:underline">
            <X aria-hidden="true" className="size-4" />
            Clear filters
          </button>
        </div>
      )}
    </div>
  );
}
