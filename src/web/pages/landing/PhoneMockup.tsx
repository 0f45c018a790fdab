import { ImageIcon, NotebookText, SendHorizontal } from 'lucide-react';
import type { ReactNode } from 'react';
import { PRODUCT_NAME } from '../../../shared/site';
import { LogoMark } from '../../components/marketing/Logo';
import { JOURNAL_NUMBER_DISPLAY } from '../../components/marketing/journalNumber';
import { cn } from '../../components/ui/cn';

function Bubble({ from, children, className }: { from: 'journal' | 'me'; children: ReactNode; className?: string }) {
  return (
    <div
      className={cn(
        'max-w-[82%] rounded-2xl px-3.5 py-2 text-[13px] leading-snug shadow-sm',
        from === 'me' ? 'self-end rounded-br-md bg-brand-700 text-white' : 'self-start rounded-bl-md bg-white text-ink ring-1 ring-stone-200',
        className,
      )}
    >
      {children}
    </div>
  );
}

/** A phone showing a sample conversation with the journal number; drawn in HTML, described for screen readers. */
export function PhoneMockup() {
  return (
    <div className="relative mx-auto w-full max-w-[300px] lg:max-w-[320px]">
      <div aria-hidden="true" className="absolute -inset-8 -z-10 rounded-full bg-gradient-to-br from-brand-200/60 via-amber-100/60 to-transparent blur-3xl" />
      <div
        role="img"
        aria-label={`A phone showing a text conversation with ${PRODUCT_NAME}. The evening prompt asks "What made you smile today?" and the replies, a few texts and a photo, are saved together as today's journal entry.`}
        className="rounded-[2.75rem] bg-ink p-2.5 shadow-2xl shadow-brand-900/25 ring-1 ring-black/10"
      >
        <div className="relative overflow-hidden rounded-[2.2rem] bg-stone-100">
          <div className="absolute top-2 left-1/2 h-5 w-24 -translate-x-1/2 rounded-full bg-ink" />
          <div className="flex items-center justify-between px-7 pt-2.5 pb-1 text-[11px] font-semibold text-ink">
            <span>8:04</span>
            <span className="flex items-end gap-0.5">
              <span className="h-1.5 w-0.5 rounded-sm bg-ink" />
              <span className="h-2 w-0.5 rounded-sm bg-ink" />
              <span className="h-2.5 w-0.5 rounded-sm bg-ink" />
              <span className="ml-1 h-2.5 w-5 rounded-[3px] border border-ink p-px">
                <span className="block h-full w-3/4 rounded-[1px] bg-ink" />
              </span>
            </span>
          </div>
          <div className="flex flex-col items-center gap-1 border-b border-stone-200 bg-stone-50/90 px-4 pt-3 pb-2.5">
            <LogoMark className="size-9" />
            <span className="text-xs font-semibold text-ink">{PRODUCT_NAME} Journal</span>
            <span className="text-[10px] text-stone-600">{JOURNAL_NUMBER_DISPLAY}</span>
          </div>
          <div className="flex min-h-[380px] flex-col gap-2 px-3 pt-3 pb-4">
            <p className="self-center text-[10px] font-medium text-stone-600">Today 8:00 PM</p>
            <Bubble from="journal">Good evening! Today's prompt: What made you smile today?</Bubble>
            <Bubble from="me">Maya took her first steps in the kitchen. Sam and I both cried.</Bubble>
            <div className="flex aspect-[4/3] w-40 items-center justify-center self-end rounded-2xl rounded-br-md bg-gradient-to-br from-amber-200 via-orange-200 to-rose-300 shadow-sm">
              <ImageIcon className="size-8 text-white/90" strokeWidth={1.5} />
            </div>
            <Bubble from="me">Also finished the book for club. So glad I stuck with it.</Bubble>
            <p className="self-end pr-1 text-[10px] text-stone-600">Delivered</p>
          </div>
          <div className="flex items-center gap-2 border-t border-stone-200 bg-white px-3 py-2.5">
            <span className="flex-1 rounded-full border border-stone-300 px-3 py-1.5 text-[12px] text-stone-500">Text Message</span>
            <span className="flex size-7 items-center justify-center rounded-full bg-brand-600 text-white">
              <SendHorizontal className="size-3.5" />
            </span>
          </div>
        </div>
      </div>
      <div
        aria-hidden="true"
        className="absolute top-[57%] -left-4 hidden items-center gap-3 rounded-2xl bg-white/95 px-4 py-3 shadow-xl ring-1 ring-stone-200 sm:flex lg:-left-16"
      >
        <span className="flex size-9 items-center justify-center rounded-xl bg-brand-50 text-brand-700">
          <NotebookText className="size-5" />
        </span>
        <span className="text-left">
          <span className="block text-sm font-semibold text-ink">Today's entry</span>
          <span className="block text-xs text-stone-500">3 texts and a photo, one page</span>
        </span>
      </div>
    </div>
  );
}
