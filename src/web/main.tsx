import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { watchForNewVersion } from './app-shell/new-version';
import { router } from './router';
import './styles.css';

/** Resolves once the router has loaded the first page's route, so that page can render at once. */
function routerReady(): Promise<void> {
  if (router.state.initialized) return Promise.resolve();
  return new Promise((resolve) => {
    const unsubscribe = router.subscribe((state) => {
      if (!state.initialized) return;
      unsubscribe();
      resolve();
    });
  });
}

// The pre-rendered HTML (or the shell's loading state) stays on screen until the page's code has
// loaded: no blank frame between. Rendering in a transition lets React yield to the browser while it
// builds the first screen, so input is never blocked for long on a slow phone.
watchForNewVersion();
void routerReady().then(() => {
  const root = createRoot(document.getElementById('root')!);
  startTransition(() => {
    root.render(
      <StrictMode>
        <App />
      </StrictMode>,
    );
  });
});
