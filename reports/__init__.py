"""Many positions or whole games at a time: batch runs, tournaments and charts."""
