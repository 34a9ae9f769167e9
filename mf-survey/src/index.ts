// An async boundary: Module Federation negotiates shared modules before bootstrap imports React.
import('./bootstrap');
