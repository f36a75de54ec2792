import { defineStore } from 'pinia';
import { ref } from 'vue';
import { overlayIds, type OverlayId } from '../../../shared/views/view-overlay';
import type { ColourMode } from '../viewport/face-colours';

/** How the viewport shows the walkmeshes; independent of which file is open. */
export const useViewStore = defineStore('view', () => {
  const colourMode = ref<ColourMode>('walkable');
  /** Which line views are on. */
  const overlays = ref<Record<OverlayId, boolean>>(Object.fromEntries(overlayIds.map((id) => [id, false])) as Record<OverlayId, boolean>);
  /** Bumped to ask the viewport to frame everything again. */
  const frameRequest = ref(0);
  const topViewRequest = ref(0);
  const frameSelectionRequest = ref(0);

  function setColourMode(mode: ColourMode): void {
    colourMode.value = mode;
  }

  function toggleOverlay(id: OverlayId): void {
    overlays.value = { ...overlays.value, [id]: !overlays.value[id] };
  }

  function requestFrame(): void {
    frameRequest.value++;
  }

  function requestTopView(): void {
    topViewRequest.value++;
  }

  function requestFrameSelection(): void {
    frameSelectionRequest.value++;
  }

  return { colourMode, overlays, frameRequest, topViewRequest, frameSelectionRequest, setColourMode, toggleOverlay, requestFrame, requestTopView, requestFrameSelection };
});
