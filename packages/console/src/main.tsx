import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import '@xyflow/react/dist/style.css'
import './styles.css'
import { Console } from './Console'

const root = document.getElementById('root')
if (root === null) throw new Error('the page has no #root element')
createRoot(root).render(
  <StrictMode>
    <Console />
  </StrictMode>,
)
