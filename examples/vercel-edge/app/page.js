// A short page saying how to call the edge route.
export default function Page() {
  return (
    <main>
      <h1>wabash on the edge</h1>
      <p>
        POST <code>{'{"script": "echo hi"}'}</code> to <code>/api/bash</code>.
      </p>
    </main>
  );
}
