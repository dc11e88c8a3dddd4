// tsx compiles the workspaces' .tsx with the classic runtime here (React.createElement): give it React
import React from 'react';
(globalThis as { React?: typeof React }).React = React;
