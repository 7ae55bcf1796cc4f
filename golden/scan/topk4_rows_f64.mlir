entry @topk4_rows_f64(%arg0: tile<ptr<f64>>, %arg1: tile<ptr<f64>>, %arg2: tile<ptr<i32>>) {
  %0 = make_token : token
  %1, %2, %3 = get_tile_block_id : tile<i32>
  %4 = assume div_by<16>, %arg0 : tile<ptr<f64>>
  %5 = make_tensor_view %4, shape = [64, 64], strides = [64, 1] : tensor_view<64x64xf64, strides=[64,1]>
  %6 = make_partition_view %5 : partition_view<tile=(16x64), padding_value = zero, tensor_view<64x64xf64, strides=[64,1]>>
  %7, %8 = load_view_tko weak %6[%1, %2] token = %0 : partition_view<tile=(16x64), padding_value = zero, tensor_view<64x64xf64, strides=[64,1]>>, tile<i32> -> tile<16x64xf64>, token
  %9 = iota : tile<64xi32>
  %10 = reshape %9 : tile<64xi32> -> tile<1x64xi32>
  %11 = broadcast %10 : tile<1x64xi32> -> tile<16x64xi32>
  %12, %13 = reduce %7, %11 dim=1 identities=[0xFFF0000000000000 : f64, 2147483647 : i32] : tile<16x64xf64>, tile<16x64xi32> -> tile<16xf64>, tile<16xi32> 
  (%14: tile<f64>, %15: tile<f64>, %16: tile<i32>, %17: tile<i32>) {
    %18 = cmpf greater_than ordered %14, %15 : tile<f64> -> tile<i1>
    %19 = cmpf equal ordered %14, %15 : tile<f64> -> tile<i1>
    %20 = cmpi less_than %16, %17, signed : tile<i32> -> tile<i1>
    %21 = andi %19, %20 : tile<i1>
    %22 = ori %18, %21 : tile<i1>
    %23 = select %22, %14, %15 : tile<i1>, tile<f64>
    %24 = select %22, %16, %17 : tile<i1>, tile<i32>
    yield %23, %24 : tile<f64>, tile<i32>
  }
  %25 = reshape %13 : tile<16xi32> -> tile<16x1xi32>
  %26 = broadcast %25 : tile<16x1xi32> -> tile<16x64xi32>
  %27 = cmpi equal %11, %26, signed : tile<16x64xi32> -> tile<16x64xi1>
  %28 = constant <f64: 0xFFF0000000000000> : tile<16x64xf64>
  %29 = select %27, %7, %28 : tile<16x64xi1>, tile<16x64xf64>
  %30 = reduce %29 dim=1 identities=[0xFFF0000000000000 : f64] : tile<16x64xf64> -> tile<16xf64> 
  (%31: tile<f64>, %32: tile<f64>) {
    %33 = maxf %32, %31 : tile<f64>
    yield %33 : tile<f64>
  }
  %34 = reshape %30 : tile<16xf64> -> tile<16x1xf64>
  %35 = select %27, %28, %7 : tile<16x64xi1>, tile<16x64xf64>
  %36, %37 = reduce %35, %11 dim=1 identities=[0xFFF0000000000000 : f64, 2147483647 : i32] : tile<16x64xf64>, tile<16x64xi32> -> tile<16xf64>, tile<16xi32> 
  (%38: tile<f64>, %39: tile<f64>, %40: tile<i32>, %41: tile<i32>) {
    %42 = cmpf greater_than ordered %38, %39 : tile<f64> -> tile<i1>
    %43 = cmpf equal ordered %38, %39 : tile<f64> -> tile<i1>
    %44 = cmpi less_than %40, %41, signed : tile<i32> -> tile<i1>
    %45 = andi %43, %44 : tile<i1>
    %46 = ori %42, %45 : tile<i1>
    %47 = select %46, %38, %39 : tile<i1>, tile<f64>
    %48 = select %46, %40, %41 : tile<i1>, tile<i32>
    yield %47, %48 : tile<f64>, tile<i32>
  }
  %49 = reshape %37 : tile<16xi32> -> tile<16x1xi32>
  %50 = broadcast %49 : tile<16x1xi32> -> tile<16x64xi32>
  %51 = cmpi equal %11, %50, signed : tile<16x64xi32> -> tile<16x64xi1>
  %52 = select %51, %35, %28 : tile<16x64xi1>, tile<16x64xf64>
  %53 = reduce %52 dim=1 identities=[0xFFF0000000000000 : f64] : tile<16x64xf64> -> tile<16xf64> 
  (%54: tile<f64>, %55: tile<f64>) {
    %56 = maxf %55, %54 : tile<f64>
    yield %56 : tile<f64>
  }
  %57 = reshape %53 : tile<16xf64> -> tile<16x1xf64>
  %58 = cat %34, %57 dim = 1 : tile<16x1xf64>, tile<16x1xf64> -> tile<16x2xf64>
  %59 = select %51, %28, %35 : tile<16x64xi1>, tile<16x64xf64>
  %60, %61 = reduce %59, %11 dim=1 identities=[0xFFF0000000000000 : f64, 2147483647 : i32] : tile<16x64xf64>, tile<16x64xi32> -> tile<16xf64>, tile<16xi32> 
  (%62: tile<f64>, %63: tile<f64>, %64: tile<i32>, %65: tile<i32>) {
    %66 = cmpf greater_than ordered %62, %63 : tile<f64> -> tile<i1>
    %67 = cmpf equal ordered %62, %63 : tile<f64> -> tile<i1>
    %68 = cmpi less_than %64, %65, signed : tile<i32> -> tile<i1>
    %69 = andi %67, %68 : tile<i1>
    %70 = ori %66, %69 : tile<i1>
    %71 = select %70, %62, %63 : tile<i1>, tile<f64>
    %72 = select %70, %64, %65 : tile<i1>, tile<i32>
    yield %71, %72 : tile<f64>, tile<i32>
  }
  %73 = reshape %61 : tile<16xi32> -> tile<16x1xi32>
  %74 = broadcast %73 : tile<16x1xi32> -> tile<16x64xi32>
  %75 = cmpi equal %11, %74, signed : tile<16x64xi32> -> tile<16x64xi1>
  %76 = select %75, %59, %28 : tile<16x64xi1>, tile<16x64xf64>
  %77 = reduce %76 dim=1 identities=[0xFFF0000000000000 : f64] : tile<16x64xf64> -> tile<16xf64> 
  (%78: tile<f64>, %79: tile<f64>) {
    %80 = maxf %79, %78 : tile<f64>
    yield %80 : tile<f64>
  }
  %81 = reshape %77 : tile<16xf64> -> tile<16x1xf64>
  %82 = select %75, %28, %59 : tile<16x64xi1>, tile<16x64xf64>
  %83, %84 = reduce %82, %11 dim=1 identities=[0xFFF0000000000000 : f64, 2147483647 : i32] : tile<16x64xf64>, tile<16x64xi32> -> tile<16xf64>, tile<16xi32> 
  (%85: tile<f64>, %86: tile<f64>, %87: tile<i32>, %88: tile<i32>) {
    %89 = cmpf greater_than ordered %85, %86 : tile<f64> -> tile<i1>
    %90 = cmpf equal ordered %85, %86 : tile<f64> -> tile<i1>
    %91 = cmpi less_than %87, %88, signed : tile<i32> -> tile<i1>
    %92 = andi %90, %91 : tile<i1>
    %93 = ori %89, %92 : tile<i1>
    %94 = select %93, %85, %86 : tile<i1>, tile<f64>
    %95 = select %93, %87, %88 : tile<i1>, tile<i32>
    yield %94, %95 : tile<f64>, tile<i32>
  }
  %96 = reshape %84 : tile<16xi32> -> tile<16x1xi32>
  %97 = broadcast %96 : tile<16x1xi32> -> tile<16x64xi32>
  %98 = cmpi equal %11, %97, signed : tile<16x64xi32> -> tile<16x64xi1>
  %99 = select %98, %82, %28 : tile<16x64xi1>, tile<16x64xf64>
  %100 = reduce %99 dim=1 identities=[0xFFF0000000000000 : f64] : tile<16x64xf64> -> tile<16xf64> 
  (%101: tile<f64>, %102: tile<f64>) {
    %103 = maxf %102, %101 : tile<f64>
    yield %103 : tile<f64>
  }
  %104 = reshape %100 : tile<16xf64> -> tile<16x1xf64>
  %105 = cat %81, %104 dim = 1 : tile<16x1xf64>, tile<16x1xf64> -> tile<16x2xf64>
  %106 = cat %58, %105 dim = 1 : tile<16x2xf64>, tile<16x2xf64> -> tile<16x4xf64>
  %107 = assume div_by<16>, %arg1 : tile<ptr<f64>>
  %108 = make_tensor_view %107, shape = [64, 4], strides = [4, 1] : tensor_view<64x4xf64, strides=[4,1]>
  %109 = make_partition_view %108 : partition_view<tile=(16x4), padding_value = zero, tensor_view<64x4xf64, strides=[4,1]>>
  %110 = store_view_tko weak %106, %109[%1, %2] token = %8 : tile<16x4xf64>, partition_view<tile=(16x4), padding_value = zero, tensor_view<64x4xf64, strides=[4,1]>>, tile<i32> -> token
  %111 = cat %25, %49 dim = 1 : tile<16x1xi32>, tile<16x1xi32> -> tile<16x2xi32>
  %112 = cat %73, %96 dim = 1 : tile<16x1xi32>, tile<16x1xi32> -> tile<16x2xi32>
  %113 = cat %111, %112 dim = 1 : tile<16x2xi32>, tile<16x2xi32> -> tile<16x4xi32>
  %114 = assume div_by<16>, %arg2 : tile<ptr<i32>>
  %115 = make_tensor_view %114, shape = [64, 4], strides = [4, 1] : tensor_view<64x4xi32, strides=[4,1]>
  %116 = make_partition_view %115 : partition_view<tile=(16x4), padding_value = zero, tensor_view<64x4xi32, strides=[4,1]>>
  %117 = store_view_tko weak %113, %116[%1, %2] token = %110 : tile<16x4xi32>, partition_view<tile=(16x4), padding_value = zero, tensor_view<64x4xi32, strides=[4,1]>>, tile<i32> -> token
  return
}
