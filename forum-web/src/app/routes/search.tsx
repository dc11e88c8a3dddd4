import { useSearchParams } from 'react-router-dom';
import { SearchResults } from '../../features/search';

/** /search?q=…&page=n: the results of the bar's search box. */
export function SearchPage() {
  const [search] = useSearchParams();
  return <SearchResults q={search.get('q') ?? ''} />;
}
