import { RouterProvider } from 'react-router';
import { router } from './router';

/** The app's providers load with the first app page (src/web/app-shell), not here. */
export function App() {
  return <RouterProvider router={router} />;
}
