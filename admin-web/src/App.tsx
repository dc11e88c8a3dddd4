import { Admin, Resource } from 'react-admin';
import { BrowserRouter, Route, Routes } from 'react-router-dom';
import { dataProvider } from './dataProvider';
import posts from './resources/posts';

/**
 * The console lives under /admin of the gateway with real paths (not #/ ones):
 * react-admin runs inside our BrowserRouter under `/admin/*` and builds its links from `basename`.
 */
export function App() {
  return (
    <BrowserRouter>
      <Routes>
        <Route
          path="/admin/*"
          element={
            <Admin disableTelemetry basename="/admin" title="Forum Admin" dataProvider={dataProvider}>
              <Resource name="posts" {...posts} recordRepresentation="title" />
            </Admin>
          }
        />
      </Routes>
    </BrowserRouter>
  );
}
