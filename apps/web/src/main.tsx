import './lib/no-eval.ts';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app.tsx';
import './lib/light/light.css';
import './app/global.css';

// Where the console runs after all (a browser only claiming to be Internet Explorer), its own warning replaces
// the static one of index.html.
document.getElementById('ie-warning')?.remove();

const container = document.getElementById('root');
if (container) {
  createRoot(container).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}
