import { defineStore } from 'pinia';
import { ref } from 'vue';
import type { ColourMode } from '../viewport/face-colours';

/** How the viewport shows the walkmeshes; independent of which file is open. */
export const useViewStore = defineStore('view', () => {
  const colourMode = ref<ColourMode>('walkable');
  /** Bumped to ask the viewport to frame everything again. */
  const frameRequest = ref(0);

  function setColourMode(mode: ColourMode): void {
    colourMode.value = mode;
  }

  function requestFrame(): void {
    frameRequest.value++;
  }

  return { colourMode, frameRequest, setColourMode, requestFrame };
});
