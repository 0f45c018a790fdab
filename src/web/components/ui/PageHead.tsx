/**
 * A page's <title> and robots policy; React 19 hoists both into <head>.
 * Private pages (sign-in, account screens) pass noIndex.
 */
export function PageHead({ title, noIndex = false }: { title: string; noIndex?: boolean }) {
  return (
    <>
      <title>{title}</title>
      {noIndex && <meta name="robots" content="noindex, nofollow" />}
    </>
  );
}
