entry @flash_attn_bf16_d64_causal(%arg0: tile<ptr<bf16>>, %arg1: tile<ptr<bf16>>, %arg2: tile<ptr<bf16>>, %arg3: tile<ptr<bf16>>, %arg4: tile<f32>) {
  %0 = make_token : token
  %1, %2, %3 = get_tile_block_id : tile<i32>
  %4 = assume div_by<16>, %arg0 : tile<ptr<bf16>>
  %5 = make_tensor_view %4, shape = [128, 64], strides = [64, 1] : tensor_view<128x64xbf16, strides=[64,1]>
  %6 = make_partition_view %5 : partition_view<tile=(32x64), padding_value = zero, tensor_view<128x64xbf16, strides=[64,1]>>
  %7, %8 = load_view_tko weak %6[%1, %2] token = %0 : partition_view<tile=(32x64), padding_value = zero, tensor_view<128x64xbf16, strides=[64,1]>>, tile<i32> -> tile<32x64xbf16>, token
  %9 = constant <i32: 0> : tile<i32>
  %10 = constant <i32: 1> : tile<i32>
  %11 = addi %1, %10 : tile<i32>
  %12 = constant <f32: 0xFF800000> : tile<32x1xf32>
  %13 = constant <f32: 0.000000e+00> : tile<32x1xf32>
  %14 = constant <f32: 0.000000e+00> : tile<32x64xf32>
  %15, %16, %17, %18 = for %19 in (%9 to %11, step %10) : tile<i32> iter_values(%20 = %12, %21 = %13, %22 = %14, %23 = %8) -> (tile<32x1xf32>, tile<32x1xf32>, tile<32x64xf32>, token) {
    %24 = assume div_by<16>, %arg1 : tile<ptr<bf16>>
    %25 = make_tensor_view %24, shape = [128, 64], strides = [64, 1] : tensor_view<128x64xbf16, strides=[64,1]>
    %26 = make_partition_view %25 : partition_view<tile=(32x64), padding_value = zero, tensor_view<128x64xbf16, strides=[64,1]>>
    %27, %28 = load_view_tko weak %26[%19, %2] token = %23 : partition_view<tile=(32x64), padding_value = zero, tensor_view<128x64xbf16, strides=[64,1]>>, tile<i32> -> tile<32x64xbf16>, token
    %29 = assume div_by<16>, %arg2 : tile<ptr<bf16>>
    %30 = make_tensor_view %29, shape = [128, 64], strides = [64, 1] : tensor_view<128x64xbf16, strides=[64,1]>
    %31 = make_partition_view %30 : partition_view<tile=(32x64), padding_value = zero, tensor_view<128x64xbf16, strides=[64,1]>>
    %32, %33 = load_view_tko weak %31[%19, %2] token = %28 : partition_view<tile=(32x64), padding_value = zero, tensor_view<128x64xbf16, strides=[64,1]>>, tile<i32> -> tile<32x64xbf16>, token
    %34 = constant <i32: 32> : tile<i32>
    %35 = muli %19, %34 : tile<i32>
    %36 = reshape %35 : tile<i32> -> tile<1x1xi32>
    %37 = broadcast %36 : tile<1x1xi32> -> tile<1x32xi32>
    %38 = iota : tile<32xi32>
    %39 = reshape %38 : tile<32xi32> -> tile<1x32xi32>
    %40 = addi %37, %39 : tile<1x32xi32>
    %41 = broadcast %40 : tile<1x32xi32> -> tile<32x32xi32>
    %42 = muli %1, %34 : tile<i32>
    %43 = reshape %42 : tile<i32> -> tile<1x1xi32>
    %44 = broadcast %43 : tile<1x1xi32> -> tile<32x1xi32>
    %45 = reshape %38 : tile<32xi32> -> tile<32x1xi32>
    %46 = addi %44, %45 : tile<32x1xi32>
    %47 = broadcast %46 : tile<32x1xi32> -> tile<32x32xi32>
    %48 = cmpi less_than_or_equal %41, %47, signed : tile<32x32xi32> -> tile<32x32xi1>
    %49 = permute %27 [1, 0] : tile<32x64xbf16> -> tile<64x32xbf16>
    %50 = constant <f32: 0.000000e+00> : tile<32x32xf32>
    %51 = mmaf %7, %49, %50 : tile<32x64xbf16>, tile<64x32xbf16>, tile<32x32xf32>
    %52 = reshape %arg4 : tile<f32> -> tile<1x1xf32>
    %53 = broadcast %52 : tile<1x1xf32> -> tile<32x32xf32>
    %54 = mulf %51, %53  : tile<32x32xf32>
    %55 = constant <f32: 0xFF800000> : tile<32x32xf32>
    %56 = select %48, %54, %55 : tile<32x32xi1>, tile<32x32xf32>
    %57 = reduce %56 dim=1 identities=[0xFF800000 : f32] : tile<32x32xf32> -> tile<32xf32> 
    (%58: tile<f32>, %59: tile<f32>) {
      %60 = maxf %58, %59 : tile<f32>
      yield %60 : tile<f32>
    }
    %61 = reshape %57 : tile<32xf32> -> tile<32x1xf32>
    %62 = maxf %20, %61 : tile<32x1xf32>
    %63 = subf %20, %62  : tile<32x1xf32>
    %64 = exp %63  : tile<32x1xf32>
    %65 = mulf %21, %64  : tile<32x1xf32>
    %66 = broadcast %62 : tile<32x1xf32> -> tile<32x32xf32>
    %67 = subf %56, %66  : tile<32x32xf32>
    %68 = exp %67  : tile<32x32xf32>
    %69 = reduce %68 dim=1 identities=[0.000000e+00 : f32] : tile<32x32xf32> -> tile<32xf32> 
    (%70: tile<f32>, %71: tile<f32>) {
      %72 = addf %70, %71  : tile<f32>
      yield %72 : tile<f32>
    }
    %73 = reshape %69 : tile<32xf32> -> tile<32x1xf32>
    %74 = addf %65, %73  : tile<32x1xf32>
    %75 = ftof %68  : tile<32x32xf32> -> tile<32x32xbf16>
    %76 = broadcast %64 : tile<32x1xf32> -> tile<32x64xf32>
    %77 = mulf %22, %76  : tile<32x64xf32>
    %78 = mmaf %75, %32, %77 : tile<32x32xbf16>, tile<32x64xbf16>, tile<32x64xf32>
    continue %62, %74, %78, %33 : tile<32x1xf32>, tile<32x1xf32>, tile<32x64xf32>, token
  }
  %79 = broadcast %16 : tile<32x1xf32> -> tile<32x64xf32>
  %80 = divf %17, %79  : tile<32x64xf32>
  %81 = ftof %80  : tile<32x64xf32> -> tile<32x64xbf16>
  %82 = assume div_by<16>, %arg3 : tile<ptr<bf16>>
  %83 = make_tensor_view %82, shape = [128, 64], strides = [64, 1] : tensor_view<128x64xbf16, strides=[64,1]>
  %84 = make_partition_view %83 : partition_view<tile=(32x64), padding_value = zero, tensor_view<128x64xbf16, strides=[64,1]>>
  %85 = store_view_tko weak %81, %84[%1, %2] token = %18 : tile<32x64xbf16>, partition_view<tile=(32x64), padding_value = zero, tensor_view<128x64xbf16, strides=[64,1]>>, tile<i32> -> token
  return
}
