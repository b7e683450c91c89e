/** The states the document set went through, as the backend saw them, the current one last. */
export function Progress({ states, following, summary }) {
  return (
    <section className="card progress" aria-label="Progress">
      <header>
        <h2 tabIndex={-1}>Progress</h2>
        {following && <span className="badge live">Following</span>}
      </header>
      {summary && <p className="hint">{summary}</p>}
      <ol className="states">
        {states.map((entry, index) => (
          <li key={index} className={index === states.length - 1 ? 'current' : 'past'} data-state={entry.state}>
            <span className="state-name">{entry.state.replaceAll('_', ' ')}</span>
            {!entry.known && <span className="badge unlisted" title="A state the interface does not list">new state</span>}
          </li>
        ))}
      </ol>
    </section>
  );
}
