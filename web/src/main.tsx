//! Entry point: styles, the app. (src/boot.ts runs before it.) The text is set in the
//! phone's own fonts (index.css): no font file is downloaded.

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
