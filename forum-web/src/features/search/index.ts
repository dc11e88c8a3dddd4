export { SearchResults } from './components/SearchResults';
