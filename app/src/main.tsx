/** The merchant admin's entry: Polaris styles and provider around the app (docs/merchant-admin.md). */
import '@shopify/polaris/build/esm/styles.css';
import { AppProvider } from '@shopify/polaris';
import en from '@shopify/polaris/locales/en.json';
import { createRoot } from 'react-dom/client';
import { App } from './App.tsx';

const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <AppProvider i18n={en}>
      <App />
    </AppProvider>,
  );
}
