import 'react-toastify/dist/ReactToastify.css';
import { useComputedColorScheme } from '@mantine/core';
import { ToastContainer } from 'react-toastify';
import { TOAST_CONTAINER_PROPS } from '../shared/lib/toast';

/** Where toasts appear, in the colour scheme of the page; App loads it after the first render. */
export default function Toasts() {
  const scheme = useComputedColorScheme('light');
  return <ToastContainer {...TOAST_CONTAINER_PROPS} theme={scheme} />;
}
