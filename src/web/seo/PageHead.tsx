import { createContext, use, useLayoutEffect } from 'react';
import { PRODUCT_NAME } from '../../shared/site';
import { MetaTags } from './HeadTags';
import { STATIC_HEAD_ATTRIBUTE, type PageMeta } from './meta';
import { StructuredData } from './StructuredData';

/** Filled while pre-rendering: the page's metadata goes into the build's <head> instead of the body. */
export interface HeadCollector {
  meta?: PageMeta;
}

export const HeadCollectorContext = createContext<HeadCollector | null>(null);

interface PageHeadProps extends PageMeta {
  /** schema.org data, written as JSON-LD where the page renders (so it never appears twice). */
  structuredData?: object;
}

/**
 * Declares a page's title, description, canonical link, share card and robots rule.
 * `<PageHead title={pageTitle('Sign in')} robots="noindex" />` keeps a page out of search results.
 */
export function PageHead({ structuredData, ...meta }: PageHeadProps) {
  const collector = use(HeadCollectorContext);
  // Pre-rendering is one synchronous pass, so recording here is safe; the browser never has a collector.
  if (collector) collector.meta = meta;
  useDocumentTitle(meta.title);
  return (
    <>
      {!collector && <MetaTags {...meta} />}
      {structuredData && <StructuredData data={structuredData} />}
    </>
  );
}

/**
 * Sets the title on the document's existing <title> (the shell's or the pre-rendered one) instead of
 * rendering a second one, and drops the static tags that React's own now replace. A layout effect, so it
 * happens before the first paint.
 */
function useDocumentTitle(title: string) {
  useLayoutEffect(() => {
    document.head.querySelectorAll(`[${STATIC_HEAD_ATTRIBUTE}]`).forEach((element) => element.remove());
    document.title = title;
    return () => {
      document.title = PRODUCT_NAME;
    };
  }, [title]);
}
