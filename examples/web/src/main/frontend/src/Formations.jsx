/** The person's formations, the newest first, with their states: any can be opened again. */
export function Formations({ formations, current, onOpen, onStartAnother }) {
  return (
    <section className="card formations" aria-labelledby="formations-title">
      <h2 id="formations-title">Your formations</h2>
      <ul>
        {formations.map((entry) => (
          <li key={entry.id} data-formation-entry={entry.id} className={entry.id === current ? 'current' : ''}>
            <code>{entry.id}</code> <span className="state-name">{(entry.state ?? 'unknown').replaceAll('_', ' ')}</span>
            {entry.id === current ? (
              <span className="badge live">Shown</span>
            ) : (
              <button type="button" className="secondary" onClick={() => onOpen(entry)}>
                Open<span className="visually-hidden"> {entry.id}</span>
              </button>
            )}
          </li>
        ))}
      </ul>
      <button type="button" className="secondary start-another" onClick={onStartAnother}>
        Start another formation
      </button>
    </section>
  );
}
