import NLUKit
print(BLAS.configuration)
