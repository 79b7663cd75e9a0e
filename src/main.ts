// Entry point of the kiosk page.
import { mount } from 'svelte';
import App from './ui/App.svelte';
import './ui/kiosk.css';
import './ui/access.css';

mount(App, { target: document.getElementById('app')! });
