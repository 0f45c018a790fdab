export function RouteErrorPage() {
  return <main className="p-8">RouteErrorPage</main>;
}
