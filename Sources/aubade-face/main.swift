print("aubade-face: not built yet")
