; Inno Setup 6 script: Triadic's Windows installer (NOT built or tested here: only Linux is checked).
; Recipe (on Windows, Python 3.11, see packaging/README.md):
;   py -3.11 -m venv .venv-package
;   .venv-package\Scripts\python -m pip install --require-hashes --no-deps -r requirements\package.lock
;   (package.lock is resolved on Linux: regenerate it on Windows with `make lock`'s package line first)
;   magick resources\icons\triadic-16.png resources\icons\triadic-32.png resources\icons\triadic-48.png ^
;          resources\icons\triadic-256.png packaging\windows\triadic.ico
;   set PYTHONPATH=%CD%
;   .venv-package\Scripts\python packaging\stamp_build.py
;   .venv-package\Scripts\pyinstaller --noconfirm packaging\triadic.spec    -> dist\triadic\ (triadic.exe, triadicw.exe)
;   iscc packaging\windows\triadic.iss                                     -> dist\triadic-<version>-setup.exe
#define AppVersion GetEnv("TRIADIC_VERSION")
#if AppVersion == ""
  #define AppVersion "0.1.0"
#endif

[Setup]
AppId={{6F1B7C52-8E0B-4E55-9C47-3B0E2A9A7D11}
AppName=Triadic
AppVersion={#AppVersion}
AppPublisher=Triadic
DefaultDirName={autopf}\Triadic
DefaultGroupName=Triadic
OutputDir=..\..\dist
OutputBaseFilename=triadic-{#AppVersion}-setup
SetupIconFile=triadic.ico
UninstallDisplayIcon={app}\triadicw.exe
ChangesAssociations=yes
PrivilegesRequiredOverridesAllowed=dialog
Compression=lzma2
SolidCompression=yes
ArchitecturesInstallIn64BitMode=x64compatible

[Files]
Source: "..\..\dist\triadic\*"; DestDir: "{app}"; Flags: recursesubdirs ignoreversion

[Icons]
Name: "{group}\Triadic"; Filename: "{app}\triadicw.exe"; Parameters: "gui"
Name: "{autodesktop}\Triadic"; Filename: "{app}\triadicw.exe"; Parameters: "gui"; Tasks: desktopicon

[Tasks]
Name: desktopicon; Description: "Create a desktop shortcut"; Flags: unchecked

[Registry]
; *.triadic.json opens in Triadic (Windows matches the last extension, so the ProgID is set on .json's
; OpenWithProgids list and a "Triadic workflow" ProgID is registered).
Root: HKA; Subkey: "Software\Classes\Triadic.Workflow"; ValueType: string; ValueData: "Triadic workflow"; Flags: uninsdeletekey
Root: HKA; Subkey: "Software\Classes\Triadic.Workflow\DefaultIcon"; ValueType: string; ValueData: "{app}\triadicw.exe,0"
Root: HKA; Subkey: "Software\Classes\Triadic.Workflow\shell\open\command"; ValueType: string; ValueData: """{app}\triadicw.exe"" gui ""%1"""
Root: HKA; Subkey: "Software\Classes\.json\OpenWithProgids"; ValueType: string; ValueName: "Triadic.Workflow"; ValueData: ""; Flags: uninsdeletevalue

[Run]
Filename: "{app}\triadicw.exe"; Parameters: "gui"; Description: "Start Triadic"; Flags: nowait postinstall skipifsilent
