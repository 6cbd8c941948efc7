// The root layout Next requires; the example's point is app/api/bash/route.js.
export const metadata = { title: "wabash on the edge" };

export default function RootLayout({ children }) {
  return (
    <html lang="en">
      <body>{children}</body>
    </html>
  );
}
