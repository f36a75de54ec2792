import { createPinia } from 'pinia';
import { createApp } from 'vue';
import App from './App.vue';
import './styles.css';
import { clientKey } from './transport/client-key';
import { connectClient } from './transport/walkbench-client';

function showFatal(message: string): void {
  const p = document.createElement('p');
  p.className = 'fatal';
  p.setAttribute('role', 'alert');
  p.textContent = message;
  document.getElementById('app')?.replaceChildren(p);
}

try {
  const client = connectClient(window);
  const app = createApp(App);
  app.provide(clientKey, client);
  app.use(createPinia());
  app.mount('#app');
} catch (e) {
  showFatal(e instanceof Error ? e.message : String(e));
}
