//! Entry point: fonts shipped with the app (Sarabun for Thai and Latin, weights 400 and 700,
//! `font-display: swap`; the build preloads the Thai files, see vite.config.ts), styles,
//! the app. (src/boot.ts runs before it.)

import '@fontsource/sarabun/thai-400.css';
import '@fontsource/sarabun/thai-700.css';
import '@fontsource/sarabun/latin-400.css';
import '@fontsource/sarabun/latin-700.css';
import './index.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { loadPage } from './app/routes';

const root = document.getElementById('root');
if (root) {
  // The page's chunk is asked for now, while the frame renders, not once the first render
  // reaches the page.
  void loadPage(window.location.pathname);
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}
