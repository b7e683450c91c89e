import { createRoot } from 'react-dom/client';
import { App } from './App.jsx';
import './styles.css';

// Back or forward to a page the browser kept in memory: load the person's formations afresh, as
// the page may have moved on in another tab meanwhile.
window.addEventListener('pageshow', (event) => {
  if (event.persisted) {
    window.location.reload();
  }
});

createRoot(document.getElementById('root')).render(<App />);
